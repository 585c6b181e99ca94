import { queryOne, type Queryable } from './db';

/**
 * The integration tokens repository (migration 0026): short-lived tokens of an integration
 * (`installation_id` null) or of one of its installations, stored as keyed digests, and the bot
 * user rows their principals write as (a revision's author, a comment's poster). Plain SQL; who
 * may mint is `api/integration-tokens/`, what a token may do is `identity/` and `access/`.
 */

/** A token row to insert (the keyed digest only, never the token). */
export interface NewIntegrationTokenRow {
  tokenHash: string;
  integrationName: string;
  installationId: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** Inserts a token row; false when that digest is stored already (a 256-bit collision: never in practice). */
export async function insertIntegrationToken(db: Queryable, t: NewIntegrationTokenRow): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO integration_tokens (token_hash, integration_name, installation_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (token_hash) DO NOTHING RETURNING token_hash`,
    [t.tokenHash, t.integrationName, t.installationId, t.createdAt, t.expiresAt],
  );
  return rows.length > 0;
}

/** What a live token resolves to: its integration (with its current scopes) and installation, if any. */
export interface IntegrationTokenRow {
  integration_name: string;
  installation_id: string | null;
  expires_at: Date;
  /** The integration's current manifest scopes (a republish with fewer narrows live tokens). */
  scopes: string[];
  /** The integration's title (the bot's display name). */
  title: string;
}

/**
 * The live token stored under `digest` (expiry judged by the database clock, as for user
 * tokens). A token of an installation that was uninstalled, or of an unpublished integration,
 * is gone with it (ON DELETE CASCADE).
 */
export function findIntegrationToken(db: Queryable, digest: string): Promise<IntegrationTokenRow | undefined> {
  return queryOne<IntegrationTokenRow>(
    db,
    `SELECT t.integration_name, t.installation_id, t.expires_at,
            COALESCE(ARRAY(SELECT jsonb_array_elements_text(COALESCE(i.manifest::jsonb->'scopes', '[]'::jsonb))), '{}') AS scopes,
            COALESCE(i.manifest::jsonb->>'title', i.name) AS title
       FROM integration_tokens t JOIN integrations i ON i.name = t.integration_name
      WHERE t.token_hash = $1 AND t.expires_at > now()`,
    [digest],
  );
}

/** Deletes the tokens expired at `now`; returns how many went. */
export async function purgeExpiredIntegrationTokens(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query('DELETE FROM integration_tokens WHERE expires_at <= $1 RETURNING token_hash', [now]);
  return rows.length;
}

/**
 * Creates the bot user row a token's principal acts as, once (`users.id` is what revisions,
 * change requests and other rows reference). No email, no token of its own: nobody signs in as it.
 * Its display name follows the integration's title at each mint.
 */
export async function upsertBotUser(db: Queryable, id: string, displayName: string): Promise<void> {
  await db.query(
    `INSERT INTO users (id, display_name, email, instance_admin) VALUES ($1, $2, NULL, false)
     ON CONFLICT (id) DO UPDATE SET display_name = EXCLUDED.display_name WHERE users.display_name <> EXCLUDED.display_name`,
    [id, displayName],
  );
}

/** What an installation's actor is built from: its organization, selection and spaces, and its integration's scopes. */
export interface InstallationAccessRow {
  organization_id: string;
  space_selection: string;
  /** The spaces it is installed on (every space of its organization when `space_selection` is 'all'). */
  space_ids: string[];
  /** The sites it is installed on (every site of its organization when `site_selection` is 'all'). */
  site_ids: string[];
  scopes: string[];
}

/** The access facts of one installation, or undefined when it is gone. */
export function findInstallationAccess(
  db: Queryable,
  installationId: string,
): Promise<InstallationAccessRow | undefined> {
  return queryOne<InstallationAccessRow>(
    db,
    `SELECT n.organization_id, n.space_selection,
            COALESCE(ARRAY(SELECT s.id FROM spaces s WHERE s.organization_id = n.organization_id
              AND (n.space_selection = 'all'
                   OR s.id IN (SELECT x.space_id FROM integration_space_installations x WHERE x.installation_id = n.id))), '{}') AS space_ids,
            COALESCE(ARRAY(SELECT s.id FROM sites s WHERE s.organization_id = n.organization_id
              AND (n.site_selection = 'all'
                   OR s.id IN (SELECT x.site_id FROM integration_site_installations x WHERE x.installation_id = n.id))), '{}') AS site_ids,
            COALESCE(ARRAY(SELECT jsonb_array_elements_text(COALESCE(i.manifest::jsonb->'scopes', '[]'::jsonb))), '{}') AS scopes
       FROM integration_installations n JOIN integrations i ON i.name = n.integration_name
      WHERE n.id = $1`,
    [installationId],
  );
}
