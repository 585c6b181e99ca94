import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { pageArray, type PageRequest } from '../../http/paging';
import { AccessIndex, loadMembership } from '../../policy/access';
import { requireContentAccess, requireContentRole, requireOrgMember } from '../../policy/guards';
import { atLeast, type RoleOrNone } from '../../policy/roles';
import { queryOne } from '../../store/db';
import { keyAtEnd, siblingsOf } from '../content-tree/position';
import { resolveMove, resolveTransfer, type MoveRequest } from '../content-tree/move';
import { collectionSubtree, dropAccessRecords } from '../content-tree/subtree';
import { COLLECTION_COLUMNS, collectionNode, presentCollection, type CollectionRow } from './present';

export async function loadCollection(ctx: AppContext, id: string): Promise<CollectionRow | undefined> {
  return queryOne<CollectionRow>(ctx.db, `SELECT ${COLLECTION_COLUMNS} FROM collections WHERE id = $1`, [id]);
}

/** A collection the caller can see, with their role on it; 404 otherwise. */
export async function requireCollection(ctx: AppContext, p: Principal, id: string) {
  const row = await loadCollection(ctx, id);
  if (!row) throw notFound('Collection');
  const access = await requireContentAccess(ctx.db, collectionNode(row), p.userId, 'Collection');
  return { row, ...access };
}

/** The API object of a collection as the caller sees it (404 when they cannot). */
export async function collectionObjectFor(ctx: AppContext, p: Principal, id: string) {
  const { row, role } = await requireCollection(ctx, p, id);
  return presentCollection(ctx, row, role);
}

/** Collections of an organization the caller can see; `nested` false keeps only top-level ones. */
export async function listCollections(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  nested: boolean,
  page: PageRequest,
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  const index = await AccessIndex.load(ctx.db, m);
  const rows = await ctx.db.query<CollectionRow>(
    `SELECT ${COLLECTION_COLUMNS} FROM collections WHERE organization_id = $1 ${nested ? '' : 'AND parent_id IS NULL'} ORDER BY created_at, id`,
    [organizationId],
  );
  const visible: { row: CollectionRow; role: RoleOrNone }[] = [];
  for (const row of rows) {
    const role = index.roleOf(collectionNode(row));
    if (role) visible.push({ row, role });
  }
  const result = pageArray(visible, page);
  return { ...result, items: result.items.map((v) => presentCollection(ctx, v.row, v.role)) };
}

/** Creates a collection at the top level (needs org "create") or inside a parent (needs "create" there). */
export async function createCollection(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  body: { title?: string; parent?: string },
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  const parentId = body.parent ?? null;
  let role: RoleOrNone = m.role ?? null;
  if (parentId) {
    const parent = await loadCollection(ctx, parentId);
    if (!parent || parent.organization_id !== organizationId)
      throw badRequest(`Invalid parent: unknown collection "${parentId}"`);
    const access = await requireContentAccess(ctx.db, collectionNode(parent), p.userId, 'Parent collection');
    role = access.role;
  }
  requireContentRole(
    role,
    'create',
    parentId ? 'create a collection in this collection' : 'create a collection in this organization',
  );
  const id = newId();
  const now = ctx.clock.now();
  const position = keyAtEnd(await siblingsOf(ctx.db, organizationId, parentId));
  await ctx.db.query(
    'INSERT INTO collections (id, organization_id, parent_id, title, position, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)',
    [id, organizationId, parentId, body.title ?? '', position, now],
  );
  return collectionObjectFor(ctx, p, id);
}

export interface CollectionUpdate {
  title?: string;
  description?: string;
  defaultLevel?: string | null;
}

/** PATCH: admins of the collection. */
export async function updateCollection(ctx: AppContext, p: Principal, id: string, body: CollectionUpdate) {
  const { role } = await requireCollection(ctx, p, id);
  requireContentRole(role, 'admin', 'change this collection');
  await ctx.db.query(
    `UPDATE collections SET
       title = COALESCE($2, title),
       description = CASE WHEN $3::boolean THEN $4 ELSE description END,
       default_level = CASE WHEN $5::boolean THEN $6 ELSE default_level END,
       updated_at = $7
     WHERE id = $1`,
    [
      id,
      body.title ?? null,
      body.description !== undefined,
      body.description ?? null,
      body.defaultLevel !== undefined,
      body.defaultLevel ?? null,
      ctx.clock.now(),
    ],
  );
  return collectionObjectFor(ctx, p, id);
}

/**
 * Deletes a collection and its nested collections. Spaces inside are soft
 * deleted (restorable for 7 days, then back at the top level).
 */
export async function deleteCollection(ctx: AppContext, p: Principal, id: string): Promise<void> {
  const row = await loadCollection(ctx, id);
  if (!row) return;
  const m = await loadMembership(ctx.db, row.organization_id, p.userId);
  const role = (await AccessIndex.load(ctx.db, m)).roleOf(collectionNode(row));
  // Deleting what you cannot see is reported like deleting what does not exist.
  if (!role) return;
  requireContentRole(role, 'admin', 'delete this collection');
  await ctx.db.transaction(async (tx) => {
    const ids = await collectionSubtree(tx, id);
    await tx.query('UPDATE spaces SET deleted_at = $2 WHERE parent_id = ANY($1::text[]) AND deleted_at IS NULL', [
      ids,
      ctx.clock.now(),
    ]);
    await dropAccessRecords(tx, 'collection', ids);
    await tx.query('DELETE FROM collections WHERE id = $1', [id]);
  });
}

/** Moves a collection to another parent and/or position. */
export async function moveCollection(ctx: AppContext, p: Principal, id: string, body: MoveRequest) {
  const { row, role, index } = await requireCollection(ctx, p, id);
  requireContentRole(role, 'admin', 'move this collection');
  const target = await resolveMove(ctx, index, collectionNode(row), body);
  await ctx.db.query('UPDATE collections SET parent_id = $2, position = $3, updated_at = $4 WHERE id = $1', [
    id,
    target.parentId,
    target.position,
    ctx.clock.now(),
  ]);
  return collectionObjectFor(ctx, p, id);
}

/**
 * Transfers a collection with everything in it to another organization, at
 * its top level. Grants and invite links do not travel: they name members of
 * the old organization.
 */
export async function transferCollection(ctx: AppContext, p: Principal, id: string, organizationId: string) {
  const { row, role } = await requireCollection(ctx, p, id);
  requireContentRole(role, 'admin', 'transfer this collection');
  const position = await resolveTransfer(ctx, p, collectionNode(row), organizationId);
  await ctx.db.transaction(async (tx) => {
    const ids = await collectionSubtree(tx, id);
    const spaceIds = (
      await tx.query<{ id: string }>('SELECT id FROM spaces WHERE parent_id = ANY($1::text[])', [ids])
    ).map((s) => s.id);
    await tx.query('UPDATE collections SET organization_id = $2 WHERE id = ANY($1::text[])', [ids, organizationId]);
    await tx.query('UPDATE collections SET parent_id = NULL, position = $2, updated_at = $3 WHERE id = $1', [
      id,
      position,
      ctx.clock.now(),
    ]);
    await tx.query('UPDATE spaces SET organization_id = $2 WHERE id = ANY($1::text[])', [spaceIds, organizationId]);
    await dropAccessRecords(tx, 'collection', ids);
    await dropAccessRecords(tx, 'space', spaceIds);
  });
  return collectionObjectFor(ctx, p, id);
}

/** True when the caller may create content in this collection (used by space creation). */
export async function canCreateIn(ctx: AppContext, p: Principal, collection: CollectionRow): Promise<boolean> {
  const m = await loadMembership(ctx.db, collection.organization_id, p.userId);
  return atLeast((await AccessIndex.load(ctx.db, m)).roleOf(collectionNode(collection)), 'create');
}
