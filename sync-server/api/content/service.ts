import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { loadRevision, type RevisionRecord } from '../../docs/revision-store';
import { Lru } from '../../store/lru';
import { requireSpace } from '../spaces/service';
import { findChangeRequest } from '../change-requests/service';
import { viewOf, type RevisionView } from './view';
import type { RefContext } from './links';

/**
 * Revisions are immutable: the last ones read stay in memory (and so do their
 * serialized forms, see `Serialized`), so REST reads never walk a Y.Doc and
 * rarely touch the database.
 */
export class Revisions {
  /** Loaded revisions (a 1,000-page space is a few MB in memory; a few dozen stay). */
  private readonly records = new Lru<string, RevisionRecord>(32);
  /** Serialized responses per revision and variant, at most 256 MB (UTF-16 code units ~ bytes). */
  readonly serialized = new Lru<string, string>(10_000, { maxWeight: 256 * 1024 * 1024, weigh: (json) => json.length });

  constructor(private readonly ctx: AppContext) {}

  get(id: string): Promise<RevisionRecord | undefined> {
    return this.records.getOrMake(id, () => loadRevision(this.ctx.db, id));
  }

  /** The cached JSON for `key`, or `make()` serialized and kept. */
  async json(key: string, make: () => unknown): Promise<string> {
    const hit = this.serialized.get(key);
    if (hit !== undefined) return hit;
    const json = JSON.stringify(make());
    this.serialized.set(key, json);
    return json;
  }
}

/**
 * The revision a space content read targets: the space's current one, or a
 * given revision id of that space (404 when it belongs to another space).
 * Needs read access to the space (404 otherwise).
 */
export async function spaceRevision(
  ctx: AppContext,
  revisions: Revisions,
  p: Principal,
  spaceId: string,
  revisionId?: string,
): Promise<RevisionView> {
  return (await spaceRevisionWithRefs(ctx, revisions, p, spaceId, revisionId)).view;
}

/** Like spaceRevision, plus what API references to this content carry (organization, space, revision). */
export async function spaceRevisionWithRefs(
  ctx: AppContext,
  revisions: Revisions,
  p: Principal,
  spaceId: string,
  revisionId?: string,
) {
  const { row } = await requireSpace(ctx, p, spaceId);
  const id = revisionId ?? row.revision;
  const revision = await revisions.get(id);
  if (!revision || revision.spaceId !== spaceId || (revisionId !== undefined && revision.changeRequestId !== null))
    throw notFound('Revision');
  const refs: RefContext = {
    organization: row.organization_id,
    space: spaceId,
    revision: revision.id,
    appPrefix: ctx.urls.app('/'),
  };
  return { view: viewOf(revision), refs };
}

/**
 * The current revision of a change request (addressed by id or number in the
 * space), with its references. Needs read access to the space (404 otherwise).
 */
export async function changeRequestRevisionWithRefs(
  ctx: AppContext,
  revisions: Revisions,
  p: Principal,
  spaceId: string,
  changeRequestId: string,
) {
  const { row } = await requireSpace(ctx, p, spaceId);
  const cr = await findChangeRequest(ctx.db, spaceId, changeRequestId);
  if (!cr) throw notFound('Change request');
  const revision = await revisions.get(cr.revision);
  if (!revision || revision.spaceId !== spaceId) throw notFound('Revision');
  const refs: RefContext = {
    organization: row.organization_id,
    space: spaceId,
    revision: revision.id,
    appPrefix: ctx.urls.app('/'),
  };
  return { view: viewOf(revision), refs };
}
