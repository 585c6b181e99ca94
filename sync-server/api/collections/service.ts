import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { pageArray, type PageRequest } from '../../http/paging';
import { decide } from '../../policy';
import type { CollectionAction } from '../../policy/content';
import type { Role, RoleOrNone } from '../../policy/roles';
import { loadActor } from '../../access/actor';
import { collectionNode, collectionResource } from '../../access/resources';
import {
  insertCollectionRow,
  listCollectionRows,
  loadCollectionRow,
  updateCollectionRow,
  type CollectionRow,
} from '../../store/collections';
import { copyBlobOwnership } from '../../store/blob-owners';
import { enforce, requireOrgActor } from '../authorize';
import { requireCreatableParent } from '../content-tree/parent';
import { keyAtEnd, siblingsOf } from '../content-tree/position';
import { resolveMove, resolveTransfer, type MoveRequest } from '../content-tree/move';
import { collectionSubtree, dropAccessRecords } from '../content-tree/subtree';
import { presentCollection } from './present';

/** A collection row by id. */
export function loadCollection(ctx: AppContext, id: string): Promise<CollectionRow | undefined> {
  return loadCollectionRow(ctx.db, id);
}

/** A collection the caller may do `action` to (default: see it), with their role on it; policy decides (404/403). */
export async function requireCollection(ctx: AppContext, p: Principal, id: string, action: CollectionAction = 'view') {
  const row = await loadCollection(ctx, id);
  if (!row) throw notFound('Collection');
  const actor = await loadActor(ctx.db, row.organization_id, p.userId);
  const resource = collectionResource(row);
  enforce(decide(actor, action, resource));
  return { row, role: actor.access.roleOf(resource.node) as Role, actor, resource };
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
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  const rows = await listCollectionRows(ctx.db, organizationId, nested);
  const visible: { row: CollectionRow; role: RoleOrNone }[] = [];
  for (const row of rows) {
    const role = actor.access.roleOf(collectionNode(row));
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
  const parentId = body.parent ?? null;
  await requireCreatableParent(ctx, p, organizationId, parentId);
  const id = newId();
  const now = ctx.clock.now();
  const position = keyAtEnd(await siblingsOf(ctx.db, organizationId, parentId));
  await insertCollectionRow(ctx.db, { id, organizationId, parentId, title: body.title ?? '', position, now });
  return collectionObjectFor(ctx, p, id);
}

export interface CollectionUpdate {
  title?: string;
  description?: string;
  defaultLevel?: string | null;
}

/** PATCH: admins of the collection. */
export async function updateCollection(ctx: AppContext, p: Principal, id: string, body: CollectionUpdate) {
  await requireCollection(ctx, p, id, 'update');
  await updateCollectionRow(ctx.db, id, body, ctx.clock.now());
  return collectionObjectFor(ctx, p, id);
}

/**
 * Deletes a collection and its nested collections. Spaces inside are soft
 * deleted (restorable for 7 days, then back at the top level).
 */
export async function deleteCollection(ctx: AppContext, p: Principal, id: string): Promise<void> {
  const row = await loadCollection(ctx, id);
  if (!row) return;
  const actor = await loadActor(ctx.db, row.organization_id, p.userId);
  const decision = decide(actor, 'delete', collectionResource(row));
  // Deleting what you cannot see is reported like deleting what does not exist.
  if (!decision.allowed && decision.reason === 'not-found') return;
  enforce(decision);
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
  const { row, actor } = await requireCollection(ctx, p, id, 'move');
  const target = await resolveMove(ctx, actor, collectionNode(row), body);
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
  const { row } = await requireCollection(ctx, p, id, 'transfer');
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
    // Their files stay readable: the target organization receives ownership of the blobs the spaces use.
    await copyBlobOwnership(tx, row.organization_id, organizationId, spaceIds);
  });
  return collectionObjectFor(ctx, p, id);
}
