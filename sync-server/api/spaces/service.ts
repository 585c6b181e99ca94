import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest, forbidden, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { pageArray, type PageRequest } from '../../http/paging';
import { AccessIndex, loadMembership } from '../../policy/access';
import { requireContentAccess, requireContentRole, requireOrgMember } from '../../policy/guards';
import type { Role, RoleOrNone } from '../../policy/roles';
import { queryOne, type Queryable } from '../../store/db';
import { cachedQuery, cachedRead } from '../../store/read-cache';
import { keyAtEnd, siblingsOf } from '../content-tree/position';
import { canCreateIn, loadCollection, requireCollection } from '../collections/service';
import { SPACE_COLUMNS, presentSpace, spaceNode, type SpaceRow } from './present';
import { changeRequestCountersFor, changeRequestCountersOf } from './counters';

/** A space row by id (deleted ones included), read through the read cache. */
export function loadSpace(ctx: AppContext, id: string): Promise<SpaceRow | undefined> {
  return cachedRead(ctx.db, `space:${id}`, () =>
    queryOne<SpaceRow>(ctx.db, `SELECT ${SPACE_COLUMNS} FROM spaces WHERE id = $1`, [id]),
  );
}

/** A space the caller can see, with their role on it; 404 otherwise. */
export async function requireSpace(ctx: AppContext, p: Principal, id: string) {
  const row = await loadSpace(ctx, id);
  if (!row) throw notFound('Space');
  const access = await requireContentAccess(ctx.db, spaceNode(row), p.userId, 'Space');
  return { row, ...access };
}

/** Like requireSpace, but refuses a soft-deleted space (only restore and delete apply to those). */
export async function requireActiveSpace(ctx: AppContext, p: Principal, id: string) {
  const found = await requireSpace(ctx, p, id);
  if (found.row.deleted_at) throw badRequest('This space is deleted; restore it first');
  return found;
}

/** The API object of a space as the caller sees it (404 when they cannot). */
export async function spaceObjectFor(ctx: AppContext, p: Principal, id: string) {
  const { row, role } = await requireSpace(ctx, p, id);
  return presentSpace(ctx, row, role, await changeRequestCountersOf(ctx.db, id));
}

/**
 * The serialized API object of a space for the caller, cached per space and
 * role (the only caller-specific part is `permissions`), so a hot GET skips
 * both presentation and serialization. Invalidated with every other cached
 * read on any write.
 */
export async function spaceJsonFor(ctx: AppContext, p: Principal, id: string): Promise<string> {
  const { row, role } = await requireSpace(ctx, p, id);
  return cachedRead(ctx.db, `space-json:${id}:${role}`, async () =>
    JSON.stringify(presentSpace(ctx, row, role, await changeRequestCountersOf(ctx.db, id))),
  );
}

/** Visible rows with roles, paged; shared by the list operations. */
async function presentVisible(ctx: AppContext, rows: SpaceRow[], index: AccessIndex, page: PageRequest) {
  const visible: { row: SpaceRow; role: Role }[] = [];
  for (const row of rows) {
    const role = index.roleOf(spaceNode(row));
    if (role) visible.push({ row, role });
  }
  const result = pageArray(visible, page);
  const counters = await changeRequestCountersFor(
    ctx.db,
    result.items.map((v) => v.row.id),
  );
  return { ...result, items: result.items.map((v) => presentSpace(ctx, v.row, v.role, counters.get(v.row.id))) };
}

/** Active spaces of an organization the caller can see, oldest first. */
export async function listSpacesInOrganization(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  page: PageRequest,
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  const index = await AccessIndex.load(ctx.db, m);
  const rows = await cachedQuery<SpaceRow>(
    ctx.db,
    `SELECT ${SPACE_COLUMNS} FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
    [organizationId],
  );
  return presentVisible(ctx, rows, index, page);
}

/** Active spaces directly in a collection, in sidebar order. */
export async function listSpacesInCollection(ctx: AppContext, p: Principal, collectionId: string, page: PageRequest) {
  const { row: collection, index } = await requireCollection(ctx, p, collectionId);
  const rows = await ctx.db.query<SpaceRow>(
    `SELECT ${SPACE_COLUMNS} FROM spaces WHERE parent_id = $1 AND deleted_at IS NULL`,
    [collection.id],
  );
  rows.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  return presentVisible(ctx, rows, index, page);
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
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  const parentId = body.parent ?? null;
  if (parentId) {
    const parent = await loadCollection(ctx, parentId);
    if (!parent || parent.organization_id !== organizationId)
      throw badRequest(`Invalid parent: unknown collection "${parentId}"`);
    await requireContentAccess(
      ctx.db,
      {
        type: 'collection',
        id: parent.id,
        organizationId,
        parentId: parent.parent_id,
        defaultLevel: parent.default_level,
      },
      p.userId,
      'Parent collection',
    );
    if (!(await canCreateIn(ctx, p, parent)))
      throw forbidden('You need the "create" role on this collection to create a space in it');
  } else {
    requireContentRole(m.role ?? null, 'create', 'create a space in this organization');
  }
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
  const now = ctx.clock.now();
  const position = keyAtEnd(await siblingsOf(db, organizationId, parentId));
  const revision = newId();
  await db.query(
    `INSERT INTO spaces (id, organization_id, parent_id, title, emoji, visibility, edit_mode, language, default_level, position, revision, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
    [
      id,
      organizationId,
      parentId,
      fields.title ?? '',
      fields.emoji ?? null,
      fields.visibility ?? (parentId ? 'in-collection' : 'private'),
      fields.editMode ?? 'live',
      fields.language ?? null,
      fields.defaultLevel === undefined ? 'inherit' : fields.defaultLevel,
      position,
      revision,
      createdBy,
      now,
    ],
  );
  // Every space has a current revision from the start: an empty one.
  await db.query('INSERT INTO revisions (id, space_id, created_at) VALUES ($1, $2, $3)', [revision, id, now]);
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
  const { row, role } = await requireActiveSpace(ctx, p, id);
  requireContentRole(role, 'admin', 'change this space');
  if (body.visibility === 'in-collection' && !row.parent_id)
    throw badRequest('"in-collection" visibility is only for spaces inside a collection');
  const sets: string[] = [];
  const params: unknown[] = [id];
  const set = (column: string, value: unknown) => {
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  };
  if (body.title !== undefined) set('title', body.title);
  if (body.emoji !== undefined) set('emoji', body.emoji);
  if (body.editMode !== undefined) set('edit_mode', body.editMode);
  if (body.defaultLevel !== undefined) set('default_level', body.defaultLevel);
  if (body.language !== undefined) set('language', body.language);
  if (body.visibility !== undefined) set('visibility', body.visibility);
  set('updated_at', ctx.clock.now());
  await ctx.db.query(`UPDATE spaces SET ${sets.join(', ')} WHERE id = $1`, params);
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
  const caller = await requireOrgMember(ctx.db, organizationId, p.userId);
  if (caller.role !== 'admin' && p.userId !== userId)
    throw forbidden("Only organization admins can list another member's spaces");
  const target = await loadMembership(ctx.db, organizationId, userId);
  if (target.role === undefined) throw notFound('Member');
  const [targetIndex, callerIndex] = await Promise.all([
    AccessIndex.load(ctx.db, target),
    AccessIndex.load(ctx.db, caller),
  ]);
  const rows = await ctx.db.query<SpaceRow>(
    `SELECT ${SPACE_COLUMNS} FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY created_at ${order === 'asc' ? 'ASC' : 'DESC'}, id`,
    [organizationId],
  );
  const entries: { row: SpaceRow; permission: Role; callerRole: RoleOrNone }[] = [];
  for (const row of rows) {
    const permission = targetIndex.roleOf(spaceNode(row));
    if (permission) entries.push({ row, permission, callerRole: callerIndex.roleOf(spaceNode(row)) });
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
