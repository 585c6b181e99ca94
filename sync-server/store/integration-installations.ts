import { queryOne, type Queryable } from './db';

/**
 * The integration installations repository (migration 0024): an integration installed in an
 * organization, and under that installation on spaces and sites. Plain SQL and row types; the
 * rules (targets, configuration, who may) are `api/integration-installations/`.
 *
 * An installation whose `space_selection` (or `site_selection`) is `all` is on every space (site)
 * of its organization, present and future: such a space has no row of its own until it is
 * configured. So reads go through the *effective* installations below (the rows, plus one virtual
 * entry per other space of an `all` installation), never through the tables alone.
 */

export type Selection = 'all' | 'selected';
export type ContentKind = 'space' | 'site';

/** An `integration_installations` row, with the number of spaces it is on (trashed ones aside). */
export interface InstallationRow {
  id: string;
  integration_name: string;
  organization_id: string;
  status: string;
  configuration: Record<string, unknown>;
  external_ids: string[];
  space_selection: Selection;
  site_selection: Selection;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  spaces: number;
}

/**
 * A space or site installation as it is in effect: a row of its own (`explicit`), or the virtual
 * entry of an `all` installation (its configuration, external ids and status then null).
 */
export interface ContentInstallationRow {
  installation_id: string;
  integration_name: string;
  organization_id: string;
  /** The space id or the site id. */
  target_id: string;
  explicit: boolean;
  status: string | null;
  configuration: Record<string, unknown> | null;
  external_ids: string[] | null;
  /** A space in the trash: left out of lists, still readable by id. */
  trashed: boolean;
  created_at: Date;
  updated_at: Date;
}

interface KindTables {
  table: string;
  column: string;
  content: string;
  selection: string;
  trashed: string;
}

/** Constant SQL identifiers per kind (never caller input). */
const KINDS: Record<ContentKind, KindTables> = {
  space: {
    table: 'integration_space_installations',
    column: 'space_id',
    content: 'spaces',
    selection: 'space_selection',
    trashed: 'c.deleted_at IS NOT NULL',
  },
  site: {
    table: 'integration_site_installations',
    column: 'site_id',
    content: 'sites',
    selection: 'site_selection',
    trashed: 'false',
  },
};

const INSTALLATION_SELECT = `SELECT i.id, i.integration_name, i.organization_id, i.status, i.configuration, i.external_ids,
  i.space_selection, i.site_selection, i.created_by, i.created_at, i.updated_at,
  (CASE WHEN i.space_selection = 'all'
     THEN (SELECT count(*) FROM spaces s WHERE s.organization_id = i.organization_id AND s.deleted_at IS NULL)
     ELSE (SELECT count(*) FROM integration_space_installations x JOIN spaces s ON s.id = x.space_id
           WHERE x.installation_id = i.id AND s.organization_id = i.organization_id AND s.deleted_at IS NULL)
   END)::int AS spaces
  FROM integration_installations i`;

/**
 * The effective installations of a kind, as a subquery `e`: the rows on content of the
 * installation's own organization (a space transferred away leaves its row behind, unseen), then
 * the virtual entries of `all` installations. Sorted by installation, then content, oldest first.
 */
function effective(kind: ContentKind): string {
  const k = KINDS[kind];
  return `(
    SELECT i.id AS installation_id, i.integration_name, i.organization_id, c.id AS target_id, true AS explicit,
      x.status, x.configuration, x.external_ids, ${k.trashed} AS trashed, x.created_at, x.updated_at,
      i.created_at AS installed_at, c.created_at AS target_created_at
    FROM ${k.table} x JOIN integration_installations i ON i.id = x.installation_id
    JOIN ${k.content} c ON c.id = x.${k.column} AND c.organization_id = i.organization_id
    UNION ALL
    SELECT i.id, i.integration_name, i.organization_id, c.id, false, NULL, NULL, NULL, ${k.trashed}, i.created_at,
      i.updated_at, i.created_at, c.created_at
    FROM integration_installations i JOIN ${k.content} c ON c.organization_id = i.organization_id
    WHERE i.${k.selection} = 'all'
      AND NOT EXISTS (SELECT 1 FROM ${k.table} x WHERE x.installation_id = i.id AND x.${k.column} = c.id)
  ) e`;
}

const EFFECTIVE_COLUMNS = `e.installation_id, e.integration_name, e.organization_id, e.target_id, e.explicit, e.status,
  e.configuration, e.external_ids, e.trashed, e.created_at, e.updated_at`;
const EFFECTIVE_ORDER = 'ORDER BY e.installed_at, e.installation_id, e.target_created_at, e.target_id';

type Page = { offset: number; limit: number };

/** `external_ids` (a jsonb array of strings) holds `$n`. */
const holdsExternalId = (column: string, n: number) => `${column} @> jsonb_build_array($${n}::text)`;

/** Inserts an installation; false when the integration is already installed in that organization. */
export async function insertInstallationRow(
  db: Queryable,
  row: {
    id: string;
    integrationName: string;
    organizationId: string;
    status: string;
    configuration: Record<string, unknown>;
    createdBy: string;
  },
  now: Date,
): Promise<boolean> {
  const inserted = await db.query(
    `INSERT INTO integration_installations (id, integration_name, organization_id, status, configuration, created_by, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $7) ON CONFLICT (integration_name, organization_id) DO NOTHING RETURNING id`,
    [
      row.id,
      row.integrationName,
      row.organizationId,
      row.status,
      JSON.stringify(row.configuration),
      row.createdBy,
      now,
    ],
  );
  return inserted.length === 1;
}

/** An installation of `integrationName` by id (undefined when it is another integration's). */
export function findInstallationRow(
  db: Queryable,
  integrationName: string,
  id: string,
): Promise<InstallationRow | undefined> {
  return queryOne<InstallationRow>(db, `${INSTALLATION_SELECT} WHERE i.id = $1 AND i.integration_name = $2`, [
    id,
    integrationName,
  ]);
}

/** The installation of `integrationName` in an organization, if any. */
export function findInstallationInOrganization(
  db: Queryable,
  integrationName: string,
  organizationId: string,
): Promise<InstallationRow | undefined> {
  return queryOne<InstallationRow>(
    db,
    `${INSTALLATION_SELECT} WHERE i.integration_name = $1 AND i.organization_id = $2`,
    [integrationName, organizationId],
  );
}

/** Every installation in an organization, oldest first (one per integration at most). */
export function listInstallationsOfOrganization(db: Queryable, organizationId: string): Promise<InstallationRow[]> {
  return db.query<InstallationRow>(`${INSTALLATION_SELECT} WHERE i.organization_id = $1 ORDER BY i.created_at, i.id`, [
    organizationId,
  ]);
}

/** The installations of an integration, oldest first, optionally only those holding an external id. */
export async function listInstallationRows(
  db: Queryable,
  integrationName: string,
  externalId: string | undefined,
  page: Page,
): Promise<{ rows: InstallationRow[]; total: number }> {
  const where = `WHERE i.integration_name = $1 AND ($2::text IS NULL OR ${holdsExternalId('i.external_ids', 2)})`;
  const params = [integrationName, externalId ?? null];
  const rows = await db.query<InstallationRow>(
    `${INSTALLATION_SELECT} ${where} ORDER BY i.created_at, i.id LIMIT $3 OFFSET $4`,
    [...params, page.limit, page.offset],
  );
  const count = await queryOne<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM integration_installations i ${where}`,
    params,
  );
  return { rows, total: count?.n ?? 0 };
}

export interface InstallationChanges {
  status: string;
  configuration?: Record<string, unknown>;
  externalIds?: string[];
  spaceSelection?: Selection;
  siteSelection?: Selection;
}

/** Writes the given fields (the others stay). */
export async function updateInstallationRow(db: Queryable, id: string, c: InstallationChanges, now: Date) {
  await db.query(
    `UPDATE integration_installations SET status = $2,
       configuration = COALESCE($3::jsonb, configuration), external_ids = COALESCE($4::jsonb, external_ids),
       space_selection = COALESCE($5, space_selection), site_selection = COALESCE($6, site_selection), updated_at = $7
     WHERE id = $1`,
    [
      id,
      c.status,
      c.configuration === undefined ? null : JSON.stringify(c.configuration),
      c.externalIds === undefined ? null : JSON.stringify(c.externalIds),
      c.spaceSelection ?? null,
      c.siteSelection ?? null,
      now,
    ],
  );
}

/** Deletes an installation (its space and site installations go with it); false when there was none. */
export async function deleteInstallationRow(db: Queryable, id: string): Promise<boolean> {
  return (await db.query('DELETE FROM integration_installations WHERE id = $1 RETURNING id', [id])).length === 1;
}

/** The installation of one space or site, in effect (a row, or the virtual entry of an `all` installation). */
export function findContentInstallation(
  db: Queryable,
  kind: ContentKind,
  installationId: string,
  targetId: string,
): Promise<ContentInstallationRow | undefined> {
  return queryOne<ContentInstallationRow>(
    db,
    `SELECT ${EFFECTIVE_COLUMNS} FROM ${effective(kind)} WHERE e.installation_id = $1 AND e.target_id = $2`,
    [installationId, targetId],
  );
}

/** Which effective installations a list reads (one of the three, plus an optional external id). */
export type ContentInstallationFilter =
  { installationId: string } | { integrationName: string; externalId?: string } | { targetId: string };

function filterSql(f: ContentInstallationFilter): { where: string; params: unknown[] } {
  if ('installationId' in f) return { where: 'e.installation_id = $1', params: [f.installationId] };
  if ('targetId' in f) return { where: 'e.target_id = $1', params: [f.targetId] };
  return {
    where: `e.integration_name = $1 AND ($2::text IS NULL OR ${holdsExternalId('e.external_ids', 2)})`,
    params: [f.integrationName, f.externalId ?? null],
  };
}

/** Effective space or site installations (content in the trash left out), paged. */
export async function listContentInstallations(
  db: Queryable,
  kind: ContentKind,
  filter: ContentInstallationFilter,
  page: Page,
): Promise<{ rows: ContentInstallationRow[]; total: number }> {
  const { where, params } = filterSql(filter);
  const n = params.length;
  const rows = await db.query<ContentInstallationRow>(
    `SELECT ${EFFECTIVE_COLUMNS} FROM ${effective(kind)} WHERE ${where} AND NOT e.trashed ${EFFECTIVE_ORDER}
     LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...params, page.limit, page.offset],
  );
  const count = await queryOne<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM ${effective(kind)} WHERE ${where} AND NOT e.trashed`,
    params,
  );
  return { rows, total: count?.n ?? 0 };
}

/** Every effective installation on one space or site (a handful: one per integration at most). */
export function installationsOnContent(
  db: Queryable,
  kind: ContentKind,
  targetId: string,
): Promise<ContentInstallationRow[]> {
  return db.query<ContentInstallationRow>(
    `SELECT ${EFFECTIVE_COLUMNS} FROM ${effective(kind)} WHERE e.target_id = $1 ${EFFECTIVE_ORDER}`,
    [targetId],
  );
}

/** Effective installations of one organization's spaces or sites (all of them, or one's), unpaged. */
export function installationsInOrganization(
  db: Queryable,
  kind: ContentKind,
  organizationId: string,
  targetId: string | undefined,
): Promise<ContentInstallationRow[]> {
  return db.query<ContentInstallationRow>(
    `SELECT ${EFFECTIVE_COLUMNS} FROM ${effective(kind)}
     WHERE e.organization_id = $1 AND ($2::text IS NULL OR e.target_id = $2) AND NOT e.trashed ${EFFECTIVE_ORDER}`,
    [organizationId, targetId ?? null],
  );
}

export interface ContentInstallationValues {
  status: string;
  configuration: Record<string, unknown>;
  externalIds: string[];
}

/** Inserts a space or site installation; false when that space (site) already has one of this installation. */
export async function insertContentInstallation(
  db: Queryable,
  kind: ContentKind,
  installationId: string,
  targetId: string,
  v: ContentInstallationValues,
  now: Date,
): Promise<boolean> {
  const k = KINDS[kind];
  const rows = await db.query(
    `INSERT INTO ${k.table} (installation_id, ${k.column}, status, configuration, external_ids, created_at, updated_at)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $6) ON CONFLICT (installation_id, ${k.column}) DO NOTHING RETURNING installation_id`,
    [installationId, targetId, v.status, JSON.stringify(v.configuration), JSON.stringify(v.externalIds), now],
  );
  return rows.length === 1;
}

/**
 * Writes a space or site installation: updates its row, or gives the virtual entry of an `all`
 * installation a row of its own (first configured).
 */
export async function upsertContentInstallation(
  db: Queryable,
  kind: ContentKind,
  installationId: string,
  targetId: string,
  v: ContentInstallationValues,
  now: Date,
): Promise<void> {
  const k = KINDS[kind];
  await db.query(
    `INSERT INTO ${k.table} (installation_id, ${k.column}, status, configuration, external_ids, created_at, updated_at)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $6)
     ON CONFLICT (installation_id, ${k.column}) DO UPDATE SET status = EXCLUDED.status,
       configuration = EXCLUDED.configuration, external_ids = EXCLUDED.external_ids, updated_at = EXCLUDED.updated_at`,
    [installationId, targetId, v.status, JSON.stringify(v.configuration), JSON.stringify(v.externalIds), now],
  );
}

/** Deletes a space or site installation's row; false when there was none. */
export async function deleteContentInstallation(
  db: Queryable,
  kind: ContentKind,
  installationId: string,
  targetId: string,
): Promise<boolean> {
  const k = KINDS[kind];
  const rows = await db.query(
    `DELETE FROM ${k.table} WHERE installation_id = $1 AND ${k.column} = $2 RETURNING installation_id`,
    [installationId, targetId],
  );
  return rows.length === 1;
}

/** The number of site spaces of each site (for the Site objects of `extended` answers). */
export async function siteSpaceCounts(db: Queryable, siteIds: string[]): Promise<Map<string, number>> {
  if (siteIds.length === 0) return new Map();
  const rows = await db.query<{ site_id: string; n: number }>(
    'SELECT site_id, count(*)::int AS n FROM site_spaces WHERE site_id = ANY($1::text[]) GROUP BY site_id',
    [siteIds],
  );
  return new Map(rows.map((r) => [r.site_id, r.n]));
}
