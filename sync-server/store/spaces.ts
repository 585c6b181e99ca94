import { queryOne, type Queryable } from './db';
import { cachedQuery, cachedRead } from './read-cache';

/** A space row as SPACE_COLUMNS selects it. */
export interface SpaceRow {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  emoji: string | null;
  visibility: string;
  edit_mode: string;
  language: string | null;
  default_level: string | null;
  position: string;
  revision: string;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  open_comments: number;
  /** The translation that writes this space (a result space), and its source space. */
  translation_id: string | null;
  translation_source_id: string | null;
}

export const SPACE_COLUMNS =
  'id, organization_id, parent_id, title, emoji, visibility, edit_mode, language, default_level, position, revision, created_at, updated_at, deleted_at, open_comments, translation_id, translation_source_id';

/** A space row by id (deleted ones included), read through the read cache. */
export function loadSpaceRow(db: Queryable, id: string): Promise<SpaceRow | undefined> {
  return cachedRead(db, `space:${id}`, () =>
    queryOne<SpaceRow>(db, `SELECT ${SPACE_COLUMNS} FROM spaces WHERE id = $1`, [id]),
  );
}

/** Active spaces of an organization, oldest first (read-cached: lists are hot). */
export function listActiveSpacesOfOrganization(db: Queryable, organizationId: string): Promise<SpaceRow[]> {
  return cachedQuery<SpaceRow>(
    db,
    `SELECT ${SPACE_COLUMNS} FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
    [organizationId],
  );
}

/** Active spaces of an organization by creation date, in the given direction. */
export function listActiveSpacesByAge(
  db: Queryable,
  organizationId: string,
  order: 'asc' | 'desc',
): Promise<SpaceRow[]> {
  return db.query<SpaceRow>(
    `SELECT ${SPACE_COLUMNS} FROM spaces WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY created_at ${order === 'asc' ? 'ASC' : 'DESC'}, id`,
    [organizationId],
  );
}

/** Active spaces directly in a collection, in sidebar order. */
export async function listActiveSpacesInCollection(db: Queryable, collectionId: string): Promise<SpaceRow[]> {
  const rows = await db.query<SpaceRow>(
    `SELECT ${SPACE_COLUMNS} FROM spaces WHERE parent_id = $1 AND deleted_at IS NULL`,
    [collectionId],
  );
  return rows.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
}

/** The columns of a new space row. */
export interface NewSpaceRow {
  id: string;
  organizationId: string;
  parentId: string | null;
  title: string;
  emoji: string | null;
  visibility: string;
  editMode: string;
  language: string | null;
  defaultLevel: string | null;
  position: string;
  revision: string;
  createdBy: string;
  createdAt: Date;
}

/** Inserts a space with its first (empty) revision, through `db` (which may be a transaction). */
export async function insertSpaceRow(db: Queryable, s: NewSpaceRow): Promise<void> {
  await db.query(
    `INSERT INTO spaces (id, organization_id, parent_id, title, emoji, visibility, edit_mode, language, default_level, position, revision, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
    [
      s.id,
      s.organizationId,
      s.parentId,
      s.title,
      s.emoji,
      s.visibility,
      s.editMode,
      s.language,
      s.defaultLevel,
      s.position,
      s.revision,
      s.createdBy,
      s.createdAt,
    ],
  );
  // Every space has a current revision from the start: an empty one.
  await db.query('INSERT INTO revisions (id, space_id, created_at) VALUES ($1, $2, $3)', [
    s.revision,
    s.id,
    s.createdAt,
  ]);
}

/** The settable columns of a space. */
export interface SpaceChanges {
  title?: string;
  emoji?: string;
  edit_mode?: string;
  default_level?: string | null;
  language?: string;
  visibility?: string;
  /** null clears (the translation was deleted: the space stays, as an ordinary space). */
  translation_id?: string | null;
  translation_source_id?: string | null;
}

/** Updates the given columns of a space (and its updated_at). */
export async function updateSpaceRow(db: Queryable, id: string, changes: SpaceChanges, now: Date): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [column, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  }
  params.push(now);
  sets.push(`updated_at = $${params.length}`);
  await db.query(`UPDATE spaces SET ${sets.join(', ')} WHERE id = $1`, params);
}
