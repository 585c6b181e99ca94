import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { pageArray, type PageRequest } from '../../http/paging';
import { decide, type Actor } from '../../policy';
import type { SpaceAction } from '../../policy/content';
import type { Role, RoleOrNone } from '../../policy/roles';
import { loadActor } from '../../access/actor';
import { spaceNode, spaceResource } from '../../access/resources';
import type { Queryable } from '../../store/db';
import { cachedRead, peekCached } from '../../store/read-cache';
import {
  insertSpaceRow,
  listActiveSpacesByAge,
  listActiveSpacesInCollection,
  listActiveSpacesOfOrganization,
  loadSpaceRow,
  updateSpaceRow,
  type SpaceRow,
} from '../../store/spaces';
import { authorize, enforce, organization, requireOrgActor } from '../authorize';
import { keyAtEnd, siblingsOf } from '../content-tree/position';
import { requireCollection } from '../collections/service';
import { requireCreatableParent } from '../content-tree/parent';
import { presentSpace } from './present';
import { changeRequestCountersFor, changeRequestCountersOf } from './counters';

/**
 * A space the caller may do `action` to (default: see it), with their role
 * on it. Policy decides: 404 when they cannot see it, 400 when it is in the
 * trash and the action needs a live space, 403 when their role is too low.
 */
export function requireSpace(ctx: AppContext, p: Principal, id: string, action: SpaceAction = 'view') {
  // Every read of a space's content asks this: a granted view is kept in the read cache under the same
  // invalidation as the facts it comes from (any write), so a hot read is one lookup. Refusals are not kept.
  if (action === 'view') return cachedRead(ctx.db, viewKey(id, p), () => decideSpace(ctx, p, id, action));
  return decideSpace(ctx, p, id, action);
}

const viewKey = (id: string, p: Principal) => `view-space:${id}:${p.userId}`;
const spaceJsonKey = (id: string, role: Role) => `space-json:${id}:${role}`;

async function decideSpace(ctx: AppContext, p: Principal, id: string, action: SpaceAction) {
  const row = await loadSpaceRow(ctx.db, id);
  if (!row) throw notFound('Space');
  const actor = await loadActor(ctx.db, row.organization_id, p.userId);
  const resource = spaceResource(row);
  enforce(decide(actor, action, resource));
  return { row, role: actor.access.roleOf(resource.node) as Role, actor, resource };
}

/** The API object of a space as the caller sees it (404 when they cannot). */
export async function spaceObjectFor(ctx: AppContext, p: Principal, id: string) {
  const { row, role } = await requireSpace(ctx, p, id);
  return presentSpace(ctx, row, role, await changeRequestCountersOf(ctx.db, id));
}

/**
 * The API object of a space for the caller as UTF-8 JSON bytes, cached per
 * space and role (the only caller-specific part is `permissions`), so a hot
 * GET skips presentation, serialization and encoding. Invalidated with every
 * other cached read on any write.
 */
export async function spaceJsonFor(ctx: AppContext, p: Principal, id: string): Promise<Buffer> {
  const { row, role } = await requireSpace(ctx, p, id);
  return cachedRead(ctx.db, spaceJsonKey(id, role), async () =>
    Buffer.from(JSON.stringify(presentSpace(ctx, row, role, await changeRequestCountersOf(ctx.db, id)))),
  );
}

/** requireSpace(…, 'view') when its decision is cached, synchronously (undefined: ask requireSpace). */
export function cachedSpaceView(ctx: AppContext, p: Principal, id: string) {
  return peekCached<Awaited<ReturnType<typeof decideSpace>>>(ctx.db, viewKey(id, p));
}

/** spaceJsonFor's bytes when both its decision and its bytes are cached, synchronously (else undefined). */
export function cachedSpaceJson(ctx: AppContext, p: Principal, id: string): Buffer | undefined {
  const view = cachedSpaceView(ctx, p, id);
  return view && peekCached<Buffer>(ctx.db, spaceJsonKey(id, view.role));
}

/** Visible rows with roles, paged; shared by the list operations. */
async function presentVisible(ctx: AppContext, rows: SpaceRow[], actor: Actor, page: PageRequest) {
  const visible: { row: SpaceRow; role: Role }[] = [];
  for (const row of rows) {
    const role = actor.access.roleOf(spaceNode(row));
    if (role) visible.push({ row, role });
  }
  const result = pageArray(visible, page);
  const counters = await changeRequestCountersFor(
    ctx.db,
    result.items.map((v) => v.row.id),
  );
  return { ...result, items: result.items.map((v) => presentSpace(ctx, v.row, v.role, counters.get(v.row.id))) };
}

/** One character per role (and '-' for none): the cache key of a list's caller-specific part. */
const ROLE_CODE: Record<Role, string> = { read: 'r', comment: 'c', edit: 'e', review: 'v', create: 'n', admin: 'a' };

/**
 * presentVisible as JSON bytes, cached. Rows, counters and presentation are
 * the same for every caller but for their role on each space, so the key is
 * the list (`scope`, whose rows are read-cached under the same invalidation),
 * the page and the caller's roles: callers with the same roles share one
 * buffer, and a hot list request skips presentation, serialization and encoding.
 */
async function visibleJson(
  ctx: AppContext,
  scope: string,
  rows: SpaceRow[],
  actor: Actor,
  page: PageRequest,
): Promise<Buffer> {
  let roles = '';
  for (const row of rows) {
    const role = actor.access.roleOf(spaceNode(row));
    roles += role ? ROLE_CODE[role] : '-';
  }
  return cachedRead(ctx.db, `spaces-json:${scope}:${page.offset}:${page.limit}:${roles}`, async () =>
    Buffer.from(JSON.stringify(await presentVisible(ctx, rows, actor, page))),
  );
}

/** Active spaces of an organization the caller can see, oldest first, as JSON bytes (cached: see visibleJson). */
export async function listSpacesInOrganizationJson(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  page: PageRequest,
): Promise<Buffer> {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  const rows = await listActiveSpacesOfOrganization(ctx.db, organizationId);
  return visibleJson(ctx, `org:${organizationId}`, rows, actor, page);
}

/** Active spaces directly in a collection, in sidebar order, as JSON bytes (cached: see visibleJson). */
export async function listSpacesInCollectionJson(
  ctx: AppContext,
  p: Principal,
  collectionId: string,
  page: PageRequest,
): Promise<Buffer> {
  const { row: collection, actor } = await requireCollection(ctx, p, collectionId);
  const rows = await listActiveSpacesInCollection(ctx.db, collection.id);
  return visibleJson(ctx, `collection:${collection.id}`, rows, actor, page);
}

export interface NewSpace {
  title?: string;
  emoji?: string;
  parent?: string;
  language?: string;
  editMode?: string;
}

/** Creates a space at the top level (org "create") or in a collection ("create" there). */
export async function createSpace(ctx: AppContext, p: Principal, organizationId: string, body: NewSpace) {
  const parentId = body.parent ?? null;
  await requireCreatableParent(ctx, p, organizationId, parentId);
  const id = await insertSpace(ctx, ctx.db, organizationId, parentId, body, p.userId);
  return spaceObjectFor(ctx, p, id);
}

/** Inserts a space row at the end of its parent (through `db`, which may be a transaction); returns its id. */
export async function insertSpace(
  ctx: AppContext,
  db: Queryable,
  organizationId: string,
  parentId: string | null,
  fields: NewSpace & { defaultLevel?: string | null; visibility?: string },
  createdBy: string,
): Promise<string> {
  const id = newId();
  await insertSpaceRow(db, {
    id,
    organizationId,
    parentId,
    title: fields.title ?? '',
    emoji: fields.emoji ?? null,
    visibility: fields.visibility ?? (parentId ? 'in-collection' : 'private'),
    editMode: fields.editMode ?? 'live',
    language: fields.language ?? null,
    defaultLevel: fields.defaultLevel === undefined ? 'inherit' : fields.defaultLevel,
    position: keyAtEnd(await siblingsOf(db, organizationId, parentId)),
    revision: newId(),
    createdBy,
    createdAt: ctx.clock.now(),
  });
  return id;
}

export interface SpaceUpdate {
  title?: string;
  emoji?: string;
  editMode?: string;
  defaultLevel?: string | null;
  language?: string;
  visibility?: string;
}

/** PATCH: admins of the space. */
export async function updateSpace(ctx: AppContext, p: Principal, id: string, body: SpaceUpdate) {
  const { row } = await requireSpace(ctx, p, id, 'update');
  if (body.visibility === 'in-collection' && !row.parent_id)
    throw badRequest('"in-collection" visibility is only for spaces inside a collection');
  await updateSpaceRow(
    ctx.db,
    id,
    {
      title: body.title,
      emoji: body.emoji,
      edit_mode: body.editMode,
      default_level: body.defaultLevel,
      language: body.language,
      visibility: body.visibility,
    },
    ctx.clock.now(),
  );
  return spaceObjectFor(ctx, p, id);
}

/**
 * Spaces a member has access to, with their role on each. The member
 * themself and organization admins may ask; anyone else in the org gets 403.
 */
export async function listSpacesForMember(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  userId: string,
  order: 'asc' | 'desc',
  page: PageRequest,
) {
  const caller = await requireOrgActor(ctx.db, p, organizationId);
  if (p.userId !== userId) authorize(caller, 'list-member-spaces', organization(organizationId));
  const target = await loadActor(ctx.db, organizationId, userId);
  if (target.membership.role === undefined) throw notFound('Member');
  const rows = await listActiveSpacesByAge(ctx.db, organizationId, order);
  const entries: { row: SpaceRow; permission: Role; callerRole: RoleOrNone }[] = [];
  for (const row of rows) {
    const permission = target.access.roleOf(spaceNode(row));
    if (permission) entries.push({ row, permission, callerRole: caller.access.roleOf(spaceNode(row)) });
  }
  const result = pageArray(entries, page);
  const counters = await changeRequestCountersFor(
    ctx.db,
    result.items.map((e) => e.row.id),
  );
  return {
    ...result,
    items: result.items.map((e) => ({
      permission: e.permission,
      space: presentSpace(ctx, e.row, e.callerRole, counters.get(e.row.id)),
    })),
  };
}
