import { queryOne, type Queryable } from './db';

/** The glossary of an organization (migration 0023): entries mapping language codes to terms. */

export interface GlossaryRow {
  id: string;
  organization_id: string;
  translations: Record<string, string>;
  created_at: Date;
  updated_at: Date;
}

/** Entries of the organization, ordered by their term in `orderBy` (GitBook's query) or by creation. */
export function listGlossaryRows(db: Queryable, organizationId: string, orderBy?: string) {
  return db.query<GlossaryRow>(
    orderBy
      ? `SELECT * FROM glossary_entries WHERE organization_id = $1 ORDER BY lower(translations->>$2) NULLS LAST, created_at, id`
      : 'SELECT * FROM glossary_entries WHERE organization_id = $1 ORDER BY created_at, id',
    orderBy ? [organizationId, orderBy] : [organizationId],
  );
}

export function findGlossaryRow(db: Queryable, organizationId: string, id: string) {
  return queryOne<GlossaryRow>(db, 'SELECT * FROM glossary_entries WHERE id = $1 AND organization_id = $2', [
    id,
    organizationId,
  ]);
}

export async function insertGlossaryRow(
  db: Queryable,
  row: { id: string; organizationId: string; translations: Record<string, string> },
  now: Date,
) {
  await db.query(
    'INSERT INTO glossary_entries (id, organization_id, translations, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)',
    [row.id, row.organizationId, JSON.stringify(row.translations), now],
  );
}

export async function updateGlossaryRow(db: Queryable, id: string, translations: Record<string, string>, now: Date) {
  await db.query('UPDATE glossary_entries SET translations = $2, updated_at = $3 WHERE id = $1', [
    id,
    JSON.stringify(translations),
    now,
  ]);
}

export async function deleteGlossaryRow(db: Queryable, id: string) {
  await db.query('DELETE FROM glossary_entries WHERE id = $1', [id]);
}
