import type { Queryable } from '../../store/db';

/** Ids of a collection and every collection nested in it, at any depth. */
export async function collectionSubtree(db: Queryable, collectionId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `WITH RECURSIVE tree(id, depth) AS (
       SELECT id, 0 FROM collections WHERE id = $1
       UNION ALL
       SELECT c.id, t.depth + 1 FROM collections c JOIN tree t ON c.parent_id = t.id WHERE t.depth < 64
     ) SELECT id FROM tree`,
    [collectionId],
  );
  return rows.map((r) => r.id);
}

/** Drops grants and invite links that point at these resources (used when they leave an organization or are removed). */
export async function dropAccessRecords(db: Queryable, type: 'space' | 'collection', ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query('DELETE FROM content_permissions WHERE resource_type = $1 AND resource_id = ANY($2::text[])', [
    type,
    ids,
  ]);
  await db.query('DELETE FROM link_invites WHERE resource_type = $1 AND resource_id = ANY($2::text[])', [type, ids]);
}
