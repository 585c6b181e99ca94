import type { Clock } from '../clock';
import type { Db } from '../store/db';
import type { DocHub } from '../docs/hub';
import { crContentDoc, crDiscussionDoc, spaceContentDoc, spaceDiscussionDoc } from '../../shared/sync-contract';
import { deleteUnusedPages, pagesOfSpaces } from '../docs/revision-store';

/** What the periodic jobs work with. */
export interface JobDeps {
  db: Db;
  hub: DocHub;
  clock: Clock;
}

/** How long a deleted space can still be restored. */
export const SPACE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Permanently removes spaces deleted more than 7 days ago (by the injected
 * clock). Idempotent, so two processes running it at once do no harm.
 * Returns how many spaces were removed.
 */
export async function purgeDeletedSpaces(ctx: JobDeps): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - SPACE_RETENTION_MS);
  const purged = await ctx.db.transaction(async (tx) => {
    const rows = await tx.query<{ id: string }>(
      'SELECT id FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at <= $1 FOR UPDATE',
      [cutoff],
    );
    const ids = rows.map((r) => r.id);
    if (ids.length === 0) return { spaces: ids, changeRequests: [] as string[] };
    // Read before the cascade removes them: their documents must go too.
    const crs = await tx.query<{ id: string }>('SELECT id FROM change_requests WHERE space_id = ANY($1::text[])', [
      ids,
    ]);
    const pages = await pagesOfSpaces(tx, ids);
    await tx.query('DELETE FROM spaces WHERE id = ANY($1::text[])', [ids]);
    // Their revisions went with them (cascade); pages no other revision shares go too.
    await deleteUnusedPages(tx, pages);
    await tx.query("DELETE FROM content_permissions WHERE resource_type = 'space' AND resource_id = ANY($1::text[])", [
      ids,
    ]);
    await tx.query("DELETE FROM link_invites WHERE resource_type = 'space' AND resource_id = ANY($1::text[])", [ids]);
    return { spaces: ids, changeRequests: crs.map((r) => r.id) };
  });
  // Their documents go too: open sockets are closed and the update logs deleted.
  const documents = [
    ...purged.spaces.flatMap((id) => [spaceContentDoc(id), spaceDiscussionDoc(id)]),
    ...purged.changeRequests.flatMap((id) => [crContentDoc(id), crDiscussionDoc(id)]),
  ];
  for (const name of documents) await ctx.hub.remove(name);
  return purged.spaces.length;
}
