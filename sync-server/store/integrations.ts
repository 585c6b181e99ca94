import { queryOne, type Queryable } from './db';
import { selectCountedPage, type CountedPage } from './organizations';

/**
 * The integrations repository (migrations 0024 and 0025): integrations published by an
 * organization, their images, and the events dispatched to them. Plain SQL and row types; who may
 * publish, see and unpublish is policy's (api/integrations/), installations are
 * store/integration-installations.ts.
 */

export type IntegrationVisibility = 'public' | 'private' | 'unlisted';
export type IntegrationTarget = 'all' | 'site' | 'space' | 'organization';

/** An image stored in `integration_assets`, as the manifest names it. */
export interface AssetRef {
  sha256: string;
  contentType: string;
}

/**
 * What `integrations.manifest` holds: the published fields of GitBook's PublishIntegration, with
 * the images replaced by references to their stored bytes. The script and the secrets have their
 * own columns (the script is large; the secrets are sealed).
 */
export interface IntegrationManifest {
  runtime: 'v1' | 'v2';
  title: string;
  description: string;
  summary?: string;
  icon?: AssetRef;
  previewImages: AssetRef[];
  visibility: IntegrationVisibility;
  target: IntegrationTarget;
  scopes: string[];
  categories: string[];
  blocks: Record<string, unknown>[];
  contentSources: Record<string, unknown>[];
  externalLinks: { url: string; label: string }[];
  configurations: Record<string, unknown>;
  contentSecurityPolicy?: string | Record<string, string>;
}

/** An `integrations` row without its script and sealed secrets (INTEGRATION_COLUMNS). */
export interface IntegrationRow {
  name: string;
  organization_id: string;
  version: number;
  manifest: IntegrationManifest;
  dev_tunnel_url: string | null;
  dev_all: boolean;
  published_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const INTEGRATION_COLUMNS =
  'i.name, i.organization_id, i.version, i.manifest, i.dev_tunnel_url, i.dev_all, i.published_by, i.created_at, i.updated_at';

export function findIntegration(db: Queryable, name: string): Promise<IntegrationRow | undefined> {
  return queryOne<IntegrationRow>(db, `SELECT ${INTEGRATION_COLUMNS} FROM integrations i WHERE i.name = $1`, [name]);
}

/** The row, locked until the transaction ends (a publish of the same name waits for this one). */
export function lockIntegration(tx: Queryable, name: string): Promise<IntegrationRow | undefined> {
  return queryOne<IntegrationRow>(
    tx,
    `SELECT ${INTEGRATION_COLUMNS} FROM integrations i WHERE i.name = $1 FOR UPDATE`,
    [name],
  );
}

/** What a publish writes: the manifest, the script and the sealed secrets (null: none). */
export interface PublishedIntegration {
  name: string;
  organizationId: string;
  manifest: IntegrationManifest;
  script: string;
  secretsSealed: string | null;
  publishedBy: string;
}

/**
 * The context `secrets_sealed` is sealed with (store/secret-box.ts): a sealed value copied to another
 * integration's row does not open there.
 */
export const secretsContext = (name: string) => `integration:${name}`;

/** Inserts version 1; false when the name was taken meanwhile (a concurrent publish). */
export async function insertIntegration(tx: Queryable, i: PublishedIntegration, now: Date): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO integrations (name, organization_id, version, manifest, script, secrets_sealed, published_by, created_at, updated_at)
     VALUES ($1, $2, 1, $3, $4, $5, $6, $7, $7) ON CONFLICT (name) DO NOTHING RETURNING name`,
    [i.name, i.organizationId, JSON.stringify(i.manifest), i.script, i.secretsSealed, i.publishedBy, now],
  );
  return rows.length > 0;
}

/** Replaces what a publish gives and moves to the next version; development mode stays as it was. */
export async function republishIntegration(tx: Queryable, i: PublishedIntegration, now: Date): Promise<void> {
  await tx.query(
    `UPDATE integrations SET version = version + 1, manifest = $2, script = $3, secrets_sealed = $4,
       published_by = $5, updated_at = $6 WHERE name = $1`,
    [i.name, JSON.stringify(i.manifest), i.script, i.secretsSealed, i.publishedBy, now],
  );
}

/** Deletes the integration and, by cascade, its images, installations and events. */
export async function deleteIntegration(db: Queryable, name: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM integrations WHERE name = $1 RETURNING name', [name]);
  return rows.length > 0;
}

/** Turns development mode on (a tunnel URL) or off (null). */
export async function setDevelopmentMode(
  db: Queryable,
  name: string,
  mode: { tunnelUrl: string; all: boolean } | null,
  now: Date,
): Promise<void> {
  await db.query('UPDATE integrations SET dev_tunnel_url = $2, dev_all = $3, updated_at = $4 WHERE name = $1', [
    name,
    mode?.tunnelUrl ?? null,
    mode?.all ?? false,
    now,
  ]);
}

/** The list filters of GitBook's listIntegrations (undefined: not filtered). */
export interface IntegrationFilter {
  /** Which integrations may be listed at all: public ones, plus those of `organizationId` and those installed there. */
  visibleTo?: string;
  search?: string;
  category?: string;
  scope?: string;
  /** An integration whose target is `all` can be installed on any target, so it matches every one. */
  target?: IntegrationTarget;
  blocks?: boolean;
  contentSources?: boolean;
  /** The host of a URL a block of the integration unfurls. */
  blockDomain?: string;
  ownerId?: string;
}

/** `%` and `_` of a search term match themselves in LIKE. */
const likeTerm = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The host of each `urlUnfurl` pattern of the integration's blocks (`https://host/...` or `host/...`). */
const UNFURL_HOSTS = `SELECT lower(substring(u FROM '^(?:[a-zA-Z][a-zA-Z0-9+.-]*://)?([^/:?#]+)'))
  FROM jsonb_array_elements(COALESCE(i.manifest::jsonb->'blocks', '[]'::jsonb)) b,
       jsonb_array_elements_text(COALESCE(b->'urlUnfurl', '[]'::jsonb)) u`;

function whereOf(f: IntegrationFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const conditions: string[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (f.visibleTo !== undefined) {
    const org = param(f.visibleTo);
    conditions.push(`(i.manifest::jsonb->>'visibility' = 'public' OR i.organization_id = ${org}
      OR EXISTS (SELECT 1 FROM integration_installations n WHERE n.integration_name = i.name AND n.organization_id = ${org}))`);
  } else conditions.push(`i.manifest::jsonb->>'visibility' = 'public'`);
  if (f.search) {
    const term = param(likeTerm(f.search));
    conditions.push(`(i.name ILIKE ${term} OR i.manifest::jsonb->>'title' ILIKE ${term})`);
  }
  if (f.category) conditions.push(`i.manifest::jsonb->'categories' ? ${param(f.category)}`);
  if (f.scope) conditions.push(`i.manifest::jsonb->'scopes' ? ${param(f.scope)}`);
  if (f.target) conditions.push(`i.manifest::jsonb->>'target' IN (${param(f.target)}, 'all')`);
  const nonEmpty = (key: string, wanted: boolean) =>
    `jsonb_array_length(COALESCE(i.manifest::jsonb->'${key}', '[]'::jsonb)) ${wanted ? '>' : '='} 0`;
  if (f.blocks !== undefined) conditions.push(nonEmpty('blocks', f.blocks));
  if (f.contentSources !== undefined) conditions.push(nonEmpty('contentSources', f.contentSources));
  if (f.blockDomain) conditions.push(`lower(${param(f.blockDomain)}) IN (${UNFURL_HOSTS})`);
  if (f.ownerId) conditions.push(`i.organization_id = ${param(f.ownerId)}`);
  return { where: `WHERE ${conditions.join(' AND ')}`, params };
}

/** One page of the integrations `filter` selects, by name. */
export function listIntegrationRows(
  db: Queryable,
  filter: IntegrationFilter,
  page: { limit: number; offset: number },
): Promise<CountedPage<IntegrationRow>> {
  const { where, params } = whereOf(filter);
  return selectCountedPage<IntegrationRow>(
    db,
    { columns: INTEGRATION_COLUMNS, from: `FROM integrations i ${where}`, order: 'i.name', params },
    page,
  );
}

/** An organization by id, or by its hostname (GitBook's "ID or subdomain" of a publishing organization). */
export async function findOrganizationIdByIdOrHostname(
  db: Queryable,
  idOrHostname: string,
): Promise<string | undefined> {
  const row = await queryOne<{ id: string }>(
    db,
    'SELECT id FROM organizations WHERE id = $1 OR hostname = lower($1) ORDER BY (id = $1) DESC LIMIT 1',
    [idOrHostname],
  );
  return row?.id;
}

/** An image to store: its digest, type and bytes. */
export interface AssetBytes extends AssetRef {
  bytes: Buffer;
}

/** Makes `assets` the integration's images: the others are deleted, those already stored kept. */
export async function replaceAssets(tx: Queryable, name: string, assets: readonly AssetBytes[]): Promise<void> {
  await tx.query('DELETE FROM integration_assets WHERE integration_name = $1 AND NOT (sha256 = ANY($2::text[]))', [
    name,
    assets.map((a) => a.sha256),
  ]);
  for (const a of assets)
    await tx.query(
      `INSERT INTO integration_assets (integration_name, sha256, content_type, bytes) VALUES ($1, $2, $3, $4)
       ON CONFLICT (integration_name, sha256) DO NOTHING`,
      [name, a.sha256, a.contentType, a.bytes],
    );
}

export function findAsset(
  db: Queryable,
  name: string,
  sha256: string,
): Promise<{ content_type: string; bytes: Uint8Array } | undefined> {
  return queryOne(
    db,
    'SELECT content_type, bytes FROM integration_assets WHERE integration_name = $1 AND sha256 = $2',
    [name, sha256],
  );
}

/** An `integration_events` row. */
export interface IntegrationEventRow {
  id: string;
  integration_name: string;
  installation_id: string | null;
  organization_id: string | null;
  space_id: string | null;
  site_id: string | null;
  type: string;
  payload: Record<string, unknown>;
  status: 'pending' | 'success' | 'failed';
  trace: unknown[];
  created_at: Date;
}

const EVENT_COLUMNS =
  'id, integration_name, installation_id, organization_id, space_id, site_id, type, payload, status, trace, created_at';

/**
 * Events are listed once delivered: GitBook's IntegrationEvent has no "pending" status, and an
 * event still on its way has no outcome or trace to show.
 */
const DELIVERED = `status IN ('success', 'failed')`;

/** One page of the integration's delivered events, newest first. */
export function listEventRows(
  db: Queryable,
  name: string,
  page: { limit: number; offset: number },
): Promise<CountedPage<IntegrationEventRow>> {
  return selectCountedPage<IntegrationEventRow>(
    db,
    {
      columns: EVENT_COLUMNS,
      from: `FROM integration_events WHERE integration_name = $1 AND ${DELIVERED}`,
      order: 'created_at DESC, id DESC',
      params: [name],
    },
    page,
  );
}

export function findEventRow(db: Queryable, name: string, id: string): Promise<IntegrationEventRow | undefined> {
  return queryOne<IntegrationEventRow>(
    db,
    `SELECT ${EVENT_COLUMNS} FROM integration_events WHERE integration_name = $1 AND id = $2 AND ${DELIVERED}`,
    [name, id],
  );
}

/** What the dispatcher needs besides the row: the script to run and the sealed secrets to open. */
export function findIntegrationRuntime(
  db: Queryable,
  name: string,
): Promise<{ script: string | null; secrets_sealed: string | null } | undefined> {
  return queryOne(db, 'SELECT script, secrets_sealed FROM integrations WHERE name = $1', [name]);
}

/** A new event, pending until delivered (GitBook's Event in `payload`). */
export interface NewIntegrationEvent {
  id: string;
  integrationName: string;
  installationId?: string;
  organizationId?: string;
  spaceId?: string;
  siteId?: string;
  type: string;
  payload: Record<string, unknown>;
  jobId?: string;
}

export async function insertEventRow(db: Queryable, e: NewIntegrationEvent, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO integration_events (id, integration_name, installation_id, organization_id, space_id, site_id, type, payload, status, trace, job_id, created_at, updated_at)
     VALUES ($1, $2, $3, $10, $4, $5, $6, $7, 'pending', '[]'::jsonb, $8, $9, $9)`,
    [
      e.id,
      e.integrationName,
      e.installationId ?? null,
      e.spaceId ?? null,
      e.siteId ?? null,
      e.type,
      JSON.stringify(e.payload),
      e.jobId ?? null,
      now,
      e.organizationId ?? null,
    ],
  );
}

/** Links a queued event to the job delivering it. */
export async function setEventJob(db: Queryable, id: string, jobId: string): Promise<void> {
  await db.query('UPDATE integration_events SET job_id = $2 WHERE id = $1', [id, jobId]);
}

/** Any event by id, whatever its status (the dispatcher's read). */
export function findEventForDelivery(db: Queryable, id: string): Promise<IntegrationEventRow | undefined> {
  return queryOne<IntegrationEventRow>(db, `SELECT ${EVENT_COLUMNS} FROM integration_events WHERE id = $1`, [id]);
}

/**
 * Appends log entries to an event's trace and sets its status (still `pending` between attempts).
 * One statement: an attempt's entries and its outcome are written together.
 */
export async function recordEventAttempt(
  db: Queryable,
  id: string,
  status: IntegrationEventRow['status'],
  entries: readonly unknown[],
  now: Date,
): Promise<void> {
  await db.query(
    'UPDATE integration_events SET status = $2, trace = trace || $3::jsonb, updated_at = $4 WHERE id = $1',
    [id, status, JSON.stringify(entries), now],
  );
}
