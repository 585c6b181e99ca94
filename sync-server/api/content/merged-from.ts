import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import type { RevisionRecord } from '../../docs/revision-store';
import { queryOne } from '../../store/db';
import { findChangeRequest } from '../../store/change-requests';
import { presentFull } from '../change-requests/service';
import { requireSpace } from '../spaces/service';

/**
 * GitBook's Revision of type `merge` names the change request it came from (`mergedFrom`, a whole
 * ChangeRequest, required by its schema). That object holds the caller's permissions and live
 * counters, so it is not part of the revision's cached JSON: it is presented per request and put in
 * front of it (`{"mergedFrom":…,` + the rest).
 */
export async function withMergedFrom(ctx: AppContext, p: Principal, revision: RevisionRecord, json: string) {
  if (revision.type !== 'merge' || revision.changeRequestId !== null) return json;
  const cr = await mergedChangeRequest(ctx, revision.spaceId, revision.id);
  if (!cr) return json;
  const { actor } = await requireSpace(ctx, p, revision.spaceId);
  return `{"mergedFrom":${JSON.stringify(await presentFull(ctx, actor, cr))},${json.slice(1)}`;
}

/** The change request whose merge made the revision (undefined for any other revision). */
export async function mergedChangeRequest(ctx: AppContext, spaceId: string, revisionId: string) {
  const row = await queryOne<{ id: string }>(
    ctx.db,
    'SELECT id FROM change_requests WHERE space_id = $1 AND revision_merged = $2',
    [spaceId, revisionId],
  );
  return row ? findChangeRequest(ctx.db, spaceId, row.id) : undefined;
}
