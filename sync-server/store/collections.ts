import { queryOne, type Queryable } from './db';

/** A collection row as COLLECTION_COLUMNS selects it. */
export interface CollectionRow {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  default_level: string | null;
  position: string;
}

export const COLLECTION_COLUMNS = 'id, organization_id, parent_id, title, description, default_level, position';

/** A collection row by id. */
export function loadCollectionRow(db: Queryable, id: string): Promise<CollectionRow | undefined> {
  return queryOne<CollectionRow>(db, `SELECT ${COLLECTION_COLUMNS} FROM collections WHERE id = $1`, [id]);
}

/** Collections of an organization, oldest first; `nested` false keeps only top-level ones. */
export function listCollectionRows(db: Queryable, organizationId: string, nested: boolean): Promise<CollectionRow[]> {
  return db.query<CollectionRow>(
    `SELECT ${COLLECTION_COLUMNS} FROM collections WHERE organization_id = $1 ${nested ? '' : 'AND parent_id IS NULL'} ORDER BY created_at, id`,
    [organizationId],
  );
}

/** Inserts a collection row. */
export async function insertCollectionRow(
  db: Queryable,
  c: { id: string; organizationId: string; parentId: string | null; title: string; position: string; now: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO collections (id, organization_id, parent_id, title, position, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)',
    [c.id, c.organizationId, c.parentId, c.title, c.position, c.now],
  );
}

/** Updates title, description and default level (undefined leaves a column as it is). */
export async function updateCollectionRow(
  db: Queryable,
  id: string,
  changes: { title?: string; description?: string; defaultLevel?: string | null },
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE collections SET
       title = COALESCE($2, title),
       description = CASE WHEN $3::boolean THEN $4 ELSE description END,
       default_level = CASE WHEN $5::boolean THEN $6 ELSE default_level END,
       updated_at = $7
     WHERE id = $1`,
    [
      id,
      changes.title ?? null,
      changes.description !== undefined,
      changes.description ?? null,
      changes.defaultLevel !== undefined,
      changes.defaultLevel ?? null,
      now,
    ],
  );
}
