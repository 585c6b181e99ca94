import * as Y from 'yjs';
import type { AppContext } from '../../context';
import { spaceContentDoc } from '../../../shared/sync-contract';
import { loadRevision, saveRevision } from '../../docs/revision-store';
import { newId } from '../../http/ids';
import type { Principal } from '../../identity/principal';
import { badRequest, forbidden } from '../../http/errors';
import { decide } from '../../policy';
import { loadActor } from '../../access/actor';
import { collectionResource, spaceNode, spaceResource } from '../../access/resources';
import { copyBlobOwnership } from '../../store/blob-owners';
import { loadCollectionRow } from '../../store/collections';
import { loadSpaceRow } from '../../store/spaces';
import { enforce, organization } from '../authorize';
import { resolveMove, resolveTransfer, type MoveRequest } from '../content-tree/move';
import { dropAccessRecords } from '../content-tree/subtree';
import { SPACE_RETENTION_MS } from '../../jobs/purge-deleted-spaces';
import { insertSpace, requireSpace, spaceObjectFor } from './service';
import { copySpaceGrants } from '../../store/content-grants';

/**
 * Soft delete: sets deletedAt. The space can be restored for 7 days, after
 * which the purge job removes it. Deleting a missing, invisible or already
 * deleted space is a quiet 204.
 */
export async function deleteSpace(ctx: AppContext, p: Principal, id: string): Promise<void> {
  const row = await loadSpaceRow(ctx.db, id);
  if (!row || row.deleted_at) return;
  const decision = decide(await loadActor(ctx.db, row.organization_id, p.userId), 'delete', spaceResource(row));
  if (!decision.allowed && decision.reason === 'not-found') return;
  enforce(decision);
  await ctx.db.query('UPDATE spaces SET deleted_at = $2 WHERE id = $1', [id, ctx.clock.now()]);
}

/** Restores a space deleted less than 7 days ago (admins of the space). */
export async function restoreSpace(ctx: AppContext, p: Principal, id: string) {
  const { row } = await requireSpace(ctx, p, id, 'restore');
  if (!row.deleted_at) throw badRequest('This space is not deleted');
  if (ctx.clock.now().getTime() - row.deleted_at.getTime() > SPACE_RETENTION_MS) {
    throw badRequest('This space was deleted more than 7 days ago and can no longer be restored');
  }
  // Its collection may have been deleted meanwhile (the FK then cleared parent_id): it comes back at the top level.
  await ctx.db.query('UPDATE spaces SET deleted_at = NULL, updated_at = $2 WHERE id = $1', [id, ctx.clock.now()]);
  return spaceObjectFor(ctx, p, id);
}

/**
 * Duplicates a space next to the original: same settings and direct grants.
 * Needs read access to the space and "create" where the copy goes.
 */
export async function duplicateSpace(ctx: AppContext, p: Principal, id: string) {
  const { row, actor } = await requireSpace(ctx, p, id, 'duplicate');
  const parent = row.parent_id ? await loadCollectionRow(ctx.db, row.parent_id) : undefined;
  const where = parent
    ? decide(actor, 'create-in', collectionResource(parent))
    : decide(actor, 'create-content', organization(row.organization_id));
  if (!where.allowed) throw forbidden('You need the "create" role where the copy would be placed');
  const copyId = await ctx.db.transaction(async (tx) => {
    const insertedId = await insertSpace(
      ctx,
      tx,
      row.organization_id,
      row.parent_id,
      {
        title: row.title,
        ...(row.emoji ? { emoji: row.emoji } : {}),
        ...(row.language ? { language: row.language } : {}),
        editMode: row.edit_mode,
        defaultLevel: row.default_level,
        visibility: row.visibility,
      },
      p.userId,
    );
    await copySpaceGrants(tx, id, insertedId);
    return insertedId;
  });
  await copyContent(ctx, row.id, row.revision, copyId);
  return spaceObjectFor(ctx, p, copyId);
}

/**
 * Gives a duplicate the content of its original: the live document's state
 * (so the copy edits from there), and at once a current revision with the
 * original's pages and files, so REST serves the copy without waiting for the
 * quiet period.
 */
async function copyContent(ctx: AppContext, sourceId: string, sourceRevision: string, copyId: string): Promise<void> {
  const state = await ctx.hub.withDoc(spaceContentDoc(sourceId), (doc) => Y.encodeStateAsUpdate(doc));
  await ctx.hub.change(spaceContentDoc(copyId), (doc) => Y.applyUpdate(doc, state), { reason: 'duplicate' });
  const source = await loadRevision(ctx.db, sourceRevision);
  const copy = await loadSpaceRow(ctx.db, copyId);
  if (!source || !copy) return;
  const revisionId = newId();
  await ctx.db.transaction(async (tx) => {
    await saveRevision(tx, {
      ...source,
      id: revisionId,
      spaceId: copyId,
      changeRequestId: null,
      parents: [copy.revision],
      createdAt: ctx.clock.now(),
    });
    await tx.query('UPDATE spaces SET revision = $2 WHERE id = $1', [copyId, revisionId]);
  });
}

/** Moves a space to another collection (or the top level) and/or position. */
export async function moveSpace(ctx: AppContext, p: Principal, id: string, body: MoveRequest) {
  const { row, actor } = await requireSpace(ctx, p, id, 'move');
  const target = await resolveMove(ctx, actor, spaceNode(row), body);
  let visibility = row.visibility;
  // Leaving every collection: "in-collection" no longer means anything.
  if (!target.parentId && visibility === 'in-collection') visibility = 'private';
  await ctx.db.query(
    'UPDATE spaces SET parent_id = $2, position = $3, visibility = $4, updated_at = $5 WHERE id = $1',
    [id, target.parentId, target.position, visibility, ctx.clock.now()],
  );
  return spaceObjectFor(ctx, p, id);
}

/**
 * Transfers a space to another organization, at its top level. Direct grants
 * and invite links stay behind: they name members of the old organization.
 */
export async function transferSpace(ctx: AppContext, p: Principal, id: string, organizationId: string) {
  const { row } = await requireSpace(ctx, p, id, 'transfer');
  const position = await resolveTransfer(ctx, p, spaceNode(row), organizationId);
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      `UPDATE spaces SET organization_id = $2, parent_id = NULL, position = $3, updated_at = $4,
              visibility = CASE WHEN visibility = 'in-collection' THEN 'private' ELSE visibility END
        WHERE id = $1`,
      [id, organizationId, position, ctx.clock.now()],
    );
    await dropAccessRecords(tx, 'space', [id]);
    // Its files stay readable: the target organization receives ownership of the blobs the space uses.
    await copyBlobOwnership(tx, row.organization_id, organizationId, [id]);
  });
  return spaceObjectFor(ctx, p, id);
}
