import type { AppContext } from '../context';
import { spaceContentDoc, spaceDiscussionDoc } from '../docs/doc-names';

/** How long a deleted space can still be restored. */
export const SPACE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Permanently removes spaces deleted more than 7 days ago (by the injected
 * clock). Idempotent, so two processes running it at once do no harm.
 * Returns how many spaces were removed.
 */
export async function purgeDeletedSpaces(ctx: AppContext): Promise<number> {
  const cutoff = new Date(ctx.clock.now().getTime() - SPACE_RETENTION_MS);
  const purged = await ctx.db.transaction(async (tx) => {
    const rows = await tx.query<{ id: string }>('DELETE FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at <= $1 RETURNING id', [cutoff]);
    if (rows.length > 0) {
      const ids = rows.map((r) => r.id);
      await tx.query("DELETE FROM content_permissions WHERE resource_type = 'space' AND resource_id = ANY($1::text[])", [ids]);
      await tx.query("DELETE FROM link_invites WHERE resource_type = 'space' AND resource_id = ANY($1::text[])", [ids]);
    }
    return rows.map((r) => r.id);
  });
  // Their documents go too: open sockets are closed and the update logs deleted.
  for (const id of purged) {
    await ctx.hub.remove(spaceContentDoc(id));
    await ctx.hub.remove(spaceDiscussionDoc(id));
  }
  return purged.length;
}
