import { queryOne, type Queryable } from './db';
import { SPACE_COLUMNS, type SpaceRow } from './spaces';
import { hostAndParents } from './domain-claims';

/**
 * The docs-site repository: sites, their section groups, sections and site
 * spaces (the spaces they publish). Plain SQL and row types; what the rows
 * mean lives in `sites/`, who may change them in `policy/site.ts`.
 */

/** A `sites` row as SITE_COLUMNS selects it. */
export interface SiteRow {
  id: string;
  organization_id: string;
  type: string;
  title: string;
  visibility: string;
  published: boolean;
  hostname: string | null;
  basename: string | null;
  proxy: string | null;
  agents_context: string;
  adaptive_enabled: boolean;
  adaptive_schema: object | null;
  adaptive_schema_updated_at: Date | null;
  share_key: string;
  visitor_key: string;
  default_section_id: string | null;
  default_site_space_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns of SiteRow, for `SELECT ${SITE_COLUMNS} FROM sites`. */
export const SITE_COLUMNS = `id, organization_id, type, title, visibility, published, hostname, basename, proxy, agents_context,
  adaptive_enabled, adaptive_schema, adaptive_schema_updated_at, share_key, visitor_key, default_section_id,
  default_site_space_id, created_at, updated_at`;

/** A `site_section_groups` row. */
export interface GroupRow {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  position: string;
}

/** A `site_sections` row. */
export interface SectionRow {
  id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  description: string | null;
  path: string;
  icon: string | null;
  condition: string | null;
  default_site_space_id: string | null;
  position: string;
  /** Kept off the published site while true. */
  draft: boolean;
  /** Per-language overrides of title and description (GitBook's LocalizedString), null = none. */
  localized_title: Record<string, string> | null;
  localized_description: Record<string, string> | null;
}

/** A `site_spaces` row (`section_id` null = the site's root level). */
export interface SiteSpaceRow {
  id: string;
  site_id: string;
  section_id: string | null;
  space_id: string;
  path: string;
  condition: string | null;
  position: string;
}

/** A site row by id, within one organization. */
export function findSite(db: Queryable, organizationId: string, siteId: string): Promise<SiteRow | undefined> {
  return queryOne<SiteRow>(db, `SELECT ${SITE_COLUMNS} FROM sites WHERE id = $1 AND organization_id = $2`, [
    siteId,
    organizationId,
  ]);
}

/** A site row by id alone (published sites are addressed without their organization). */
export function findSiteById(db: Queryable, siteId: string): Promise<SiteRow | undefined> {
  return queryOne<SiteRow>(db, `SELECT ${SITE_COLUMNS} FROM sites WHERE id = $1`, [siteId]);
}

/**
 * The id of the site whose custom hostname is `hostname`, if any, and only
 * while its organization holds a verified claim to that host or a domain it
 * is under (migration 0016): a hostname set before verification existed, or
 * whose claim was dropped since, serves nothing.
 */
export async function findSiteIdByHostname(db: Queryable, hostname: string): Promise<string | undefined> {
  return (
    await queryOne<{ id: string }>(
      db,
      `SELECT s.id FROM sites s
        WHERE s.hostname = $1 AND EXISTS (
          SELECT 1 FROM domain_claims c
           WHERE c.organization_id = s.organization_id AND c.verified_at IS NOT NULL AND c.domain = ANY($2::text[]))`,
      [hostname, hostAndParents(hostname)],
    )
  )?.id;
}

/** Whether a site other than `siteId` already uses `hostname`. */
export async function hostnameUsedByOtherSite(db: Queryable, hostname: string, siteId: string): Promise<boolean> {
  const rows = await db.query<{ id: string }>('SELECT id FROM sites WHERE hostname = $1 AND id <> $2', [
    hostname,
    siteId,
  ]);
  return rows.length > 0;
}

/**
 * Sites of an organization, oldest first, each with its number of site
 * spaces; filtered by a published space, a title substring, or `published`.
 */
export function listSiteRows(
  db: Queryable,
  organizationId: string,
  filter: { space?: string; title?: string; published?: boolean },
): Promise<(SiteRow & { site_spaces: string })[]> {
  return db.query<SiteRow & { site_spaces: string }>(
    `SELECT ${SITE_COLUMNS}, (SELECT count(*) FROM site_spaces ss WHERE ss.site_id = sites.id) AS site_spaces FROM sites
      WHERE organization_id = $1
        AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = sites.id AND ss.space_id = $2))
        AND ($3::text IS NULL OR strpos(lower(title), lower($3)) > 0)
        AND ($4::boolean IS NULL OR published = $4)
      ORDER BY created_at, id`,
    [organizationId, filter.space ?? null, filter.title ?? null, filter.published ?? null],
  );
}

/** Inserts a site (unpublished, no structure yet). */
export async function insertSiteRow(
  db: Queryable,
  s: Pick<SiteRow, 'id' | 'organization_id' | 'type' | 'title' | 'visibility' | 'share_key' | 'visitor_key'>,
  createdBy: string,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO sites (id, organization_id, type, title, visibility, share_key, visitor_key, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
    [s.id, s.organization_id, s.type, s.title, s.visibility, s.share_key, s.visitor_key, createdBy, now],
  );
}

/**
 * Settings of a site: undefined keeps a column; `hostname` and `proxy` may
 * be set to null; the two defaults are always written as given.
 */
export interface SiteSettings {
  title?: string;
  visibility?: string;
  basename?: string;
  hostname?: string | null;
  agentsContext?: string;
  proxy?: string | null;
  adaptiveEnabled?: boolean;
  defaultSectionId: string | null;
  defaultSiteSpaceId: string | null;
}

/** Updates the settings of a site (and its updated_at). */
export async function updateSiteSettings(db: Queryable, siteId: string, s: SiteSettings, now: Date): Promise<void> {
  await db.query(
    `UPDATE sites SET
       title = COALESCE($2, title), visibility = COALESCE($3, visibility), basename = COALESCE($4, basename),
       hostname = CASE WHEN $5::boolean THEN $6 ELSE hostname END, agents_context = COALESCE($7, agents_context),
       proxy = CASE WHEN $8::boolean THEN $9 ELSE proxy END, adaptive_enabled = COALESCE($10, adaptive_enabled),
       default_section_id = $11, default_site_space_id = $12, updated_at = $13
     WHERE id = $1`,
    [
      siteId,
      s.title ?? null,
      s.visibility ?? null,
      s.basename ?? null,
      s.hostname !== undefined,
      s.hostname ?? null,
      s.agentsContext ?? null,
      s.proxy !== undefined,
      s.proxy ?? null,
      s.adaptiveEnabled ?? null,
      s.defaultSectionId,
      s.defaultSiteSpaceId,
      now,
    ],
  );
}

/** Publishes or unpublishes a site. */
export async function setSitePublished(db: Queryable, siteId: string, published: boolean, now: Date): Promise<void> {
  await db.query('UPDATE sites SET published = $2, updated_at = $3 WHERE id = $1', [siteId, published, now]);
}

/** Replaces the key that signs visitor tokens. */
export async function setSiteVisitorKey(db: Queryable, siteId: string, key: string, now: Date): Promise<void> {
  await db.query('UPDATE sites SET visitor_key = $2, updated_at = $3 WHERE id = $1', [siteId, key, now]);
}

/** Replaces the visitor schema of adaptive content. */
export async function setSiteAdaptiveSchema(db: Queryable, siteId: string, schema: object, now: Date): Promise<void> {
  await db.query(
    'UPDATE sites SET adaptive_schema = $2, adaptive_schema_updated_at = $3, updated_at = $3 WHERE id = $1',
    [siteId, JSON.stringify(schema), now],
  );
}

/** Deletes a site; its structure goes with it (ON DELETE CASCADE). */
export async function deleteSiteRow(db: Queryable, siteId: string): Promise<void> {
  await db.query('DELETE FROM sites WHERE id = $1', [siteId]);
}

/** The rows of a site's structure (unordered) and the spaces it publishes. */
export interface SiteStructureRows {
  groups: GroupRow[];
  sections: SectionRow[];
  siteSpaces: SiteSpaceRow[];
  spaces: SpaceRow[];
}

/** Every row of a site's structure, in four queries run together. */
export async function loadSiteStructure(db: Queryable, siteId: string): Promise<SiteStructureRows> {
  const [groups, sections, siteSpaces, spaces] = await Promise.all([
    db.query<GroupRow>('SELECT id, site_id, title, icon, position FROM site_section_groups WHERE site_id = $1', [
      siteId,
    ]),
    db.query<SectionRow>(
      `SELECT id, site_id, group_id, title, description, path, icon, condition, default_site_space_id, position,
              draft, localized_title, localized_description
       FROM site_sections WHERE site_id = $1`,
      [siteId],
    ),
    db.query<SiteSpaceRow>(
      'SELECT id, site_id, section_id, space_id, path, condition, position FROM site_spaces WHERE site_id = $1',
      [siteId],
    ),
    db.query<SpaceRow>(
      `SELECT ${SPACE_COLUMNS} FROM spaces WHERE id IN (SELECT space_id FROM site_spaces WHERE site_id = $1)`,
      [siteId],
    ),
  ]);
  return { groups, sections, siteSpaces, spaces };
}

/** The tables of a site's ordered items: each row has an id, a site_id and a fractional-index `position`. */
export type SiteItemTable = 'site_section_groups' | 'site_sections' | 'site_spaces';

/** Gives an item of a site a new place among its siblings. */
export async function setItemPosition(db: Queryable, table: SiteItemTable, id: string, position: string) {
  await db.query(`UPDATE ${table} SET position = $2 WHERE id = $1`, [id, position]);
}

/** Deletes an item of a site; nothing happens when it is not there or belongs to another site. */
export async function deleteItemRow(db: Queryable, table: SiteItemTable, siteId: string, id: string) {
  await db.query(`DELETE FROM ${table} WHERE id = $1 AND site_id = $2`, [id, siteId]);
}

/** Inserts a section (no condition, description nor localized texts yet; live unless `draft`). */
export async function insertSectionRow(
  db: Queryable,
  s: Omit<SectionRow, 'condition' | 'description' | 'draft' | 'localized_title' | 'localized_description'> & {
    draft?: boolean;
  },
) {
  await db.query(
    'INSERT INTO site_sections (id, site_id, group_id, title, path, icon, position, default_site_space_id, draft) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    [s.id, s.site_id, s.group_id, s.title, s.path, s.icon, s.position, s.default_site_space_id, s.draft ?? false],
  );
}

/** Moves the root-level site spaces of a site into `sectionId`, which becomes its default section. */
export async function gatherRootSiteSpaces(db: Queryable, siteId: string, sectionId: string): Promise<void> {
  await db.query('UPDATE site_spaces SET section_id = $2 WHERE site_id = $1 AND section_id IS NULL', [
    siteId,
    sectionId,
  ]);
  await db.query('UPDATE sites SET default_section_id = $2, default_site_space_id = NULL WHERE id = $1', [
    siteId,
    sectionId,
  ]);
}

/** The editable columns of a section, all written. */
type SectionFields = Pick<
  SectionRow,
  | 'title'
  | 'path'
  | 'default_site_space_id'
  | 'condition'
  | 'icon'
  | 'description'
  | 'draft'
  | 'localized_title'
  | 'localized_description'
>;

/** Writes the editable columns of a section. */
export async function updateSectionRow(db: Queryable, id: string, f: SectionFields): Promise<void> {
  await db.query(
    `UPDATE site_sections SET title = $2, path = $3, default_site_space_id = $4, condition = $5, icon = $6,
       description = $7, draft = $8, localized_title = $9, localized_description = $10 WHERE id = $1`,
    [
      id,
      f.title,
      f.path,
      f.default_site_space_id,
      f.condition,
      f.icon,
      f.description,
      f.draft,
      jsonOrNull(f.localized_title),
      jsonOrNull(f.localized_description),
    ],
  );
}

/** Puts a section in a group (null = the top level) at `position`. */
export async function placeSection(db: Queryable, sectionId: string, groupId: string | null, position: string) {
  await db.query('UPDATE site_sections SET group_id = $2, position = $3 WHERE id = $1', [sectionId, groupId, position]);
}

/** Chooses the default site space of a section. */
export async function setSectionDefaultSiteSpace(db: Queryable, sectionId: string, siteSpaceId: string) {
  await db.query('UPDATE site_sections SET default_site_space_id = $2 WHERE id = $1', [sectionId, siteSpaceId]);
}

/** Inserts a section group. */
export async function insertGroupRow(db: Queryable, g: GroupRow) {
  const sql = 'INSERT INTO site_section_groups (id, site_id, title, icon, position) VALUES ($1, $2, $3, $4, $5)';
  await db.query(sql, [g.id, g.site_id, g.title, g.icon, g.position]);
}

/** Writes the title and icon of a section group. */
export async function updateGroupRow(db: Queryable, id: string, f: Pick<GroupRow, 'title' | 'icon'>) {
  await db.query('UPDATE site_section_groups SET title = $2, icon = $3 WHERE id = $1', [id, f.title, f.icon]);
}

/** Ids and positions of the site spaces of a section (null = the root level). */
export function siteSpacePositions(db: Queryable, siteId: string, sectionId: string | null) {
  return db.query<{ id: string; position: string }>(
    'SELECT id, position FROM site_spaces WHERE site_id = $1 AND section_id IS NOT DISTINCT FROM $2',
    [siteId, sectionId],
  );
}

/** Inserts a site space (no condition yet). */
export async function insertSiteSpaceRow(db: Queryable, s: Omit<SiteSpaceRow, 'condition'>): Promise<void> {
  await db.query(
    'INSERT INTO site_spaces (id, site_id, section_id, space_id, path, position) VALUES ($1, $2, $3, $4, $5, $6)',
    [s.id, s.site_id, s.section_id, s.space_id, s.path, s.position],
  );
}

/** Writes the editable columns of a site space. */
export async function updateSiteSpaceRow(
  db: Queryable,
  id: string,
  f: Pick<SiteSpaceRow, 'path' | 'condition' | 'space_id'>,
) {
  const sql = 'UPDATE site_spaces SET path = $2, condition = $3, space_id = $4 WHERE id = $1';
  await db.query(sql, [id, f.path, f.condition, f.space_id]);
}

/** A jsonb parameter: the object as JSON text, null kept. */
const jsonOrNull = (value: Record<string, string> | null) => (value === null ? null : JSON.stringify(value));
