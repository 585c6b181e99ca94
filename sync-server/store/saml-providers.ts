import { queryOne, type Queryable } from './db';
import { selectCountedPage, type CountedPage } from './organizations';

/** A SAML identity provider an organization trusts (migration 0015). */
export interface SamlProviderRow {
  id: string;
  organization_id: string;
  label: string;
  /** The IdP's entity ID (the `Issuer` of its assertions); null until configured. */
  entity_id: string | null;
  /** The IdP's single sign-on URL (HTTP-Redirect binding); null until configured. */
  sso_url: string | null;
  /** The IdP's signing certificate (PEM or bare base64); null until configured. */
  certificate: string | null;
  default_team_id: string | null;
  default_role: string | null;
  created_at: Date;
}

const COLUMNS = `p.id, p.organization_id, p.label, p.entity_id, p.sso_url, p.certificate,
  p.default_team_id, p.default_role, p.created_at`;

/** One page of an organization's providers, oldest first. */
export function listSamlProviderRows(
  db: Queryable,
  organizationId: string,
  page: { limit: number; offset: number },
): Promise<CountedPage<SamlProviderRow>> {
  return selectCountedPage<SamlProviderRow>(
    db,
    {
      columns: COLUMNS,
      from: 'FROM saml_providers p WHERE p.organization_id = $1',
      order: 'p.created_at, p.id',
      params: [organizationId],
    },
    page,
  );
}

/** Every provider of an organization (at most 100, oldest first): the logins a member can start. */
export function allSamlProviderRows(db: Queryable, organizationId: string): Promise<SamlProviderRow[]> {
  return db.query<SamlProviderRow>(
    `SELECT ${COLUMNS} FROM saml_providers p WHERE p.organization_id = $1 ORDER BY p.created_at, p.id LIMIT 100`,
    [organizationId],
  );
}

/** One provider of an organization, or undefined. */
export function loadSamlProviderRow(
  db: Queryable,
  organizationId: string,
  providerId: string,
): Promise<SamlProviderRow | undefined> {
  return queryOne<SamlProviderRow>(
    db,
    `SELECT ${COLUMNS} FROM saml_providers p WHERE p.organization_id = $1 AND p.id = $2`,
    [organizationId, providerId],
  );
}

/** A provider by its id alone (the sign-in routes carry only that), or undefined. */
export function findSamlProviderRow(db: Queryable, providerId: string): Promise<SamlProviderRow | undefined> {
  return queryOne<SamlProviderRow>(db, `SELECT ${COLUMNS} FROM saml_providers p WHERE p.id = $1`, [providerId]);
}

/**
 * The first configured provider of the organization that declares `domain`
 * among its email domains and has verified it (one at most per instance):
 * where "Continue with SSO" sends a person. An unproved claim routes no one.
 */
export function findSamlProviderRowForEmailDomain(db: Queryable, domain: string): Promise<SamlProviderRow | undefined> {
  return queryOne<SamlProviderRow>(
    db,
    `SELECT ${COLUMNS} FROM saml_providers p JOIN organizations o ON o.id = p.organization_id
       JOIN domain_claims c ON c.organization_id = o.id AND c.domain = $1 AND c.verified_at IS NOT NULL
      WHERE $1 = ANY(o.email_domains) AND p.entity_id IS NOT NULL AND p.sso_url IS NOT NULL AND p.certificate IS NOT NULL
      ORDER BY o.created_at, o.id, p.created_at, p.id LIMIT 1`,
    [domain.toLowerCase()],
  );
}

export async function insertSamlProviderRow(
  db: Queryable,
  p: Omit<SamlProviderRow, 'created_at'> & { createdAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO saml_providers (id, organization_id, label, entity_id, sso_url, certificate, default_team_id, default_role, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      p.id,
      p.organization_id,
      p.label,
      p.entity_id,
      p.sso_url,
      p.certificate,
      p.default_team_id,
      p.default_role,
      p.createdAt,
    ],
  );
}

/** The columns a PATCH may change; an absent key is left as it is. */
export type SamlProviderChanges = Partial<
  Pick<SamlProviderRow, 'label' | 'entity_id' | 'sso_url' | 'certificate' | 'default_team_id' | 'default_role'>
>;

const CHANGEABLE = ['label', 'entity_id', 'sso_url', 'certificate', 'default_team_id', 'default_role'] as const;

export async function updateSamlProviderRow(
  db: Queryable,
  organizationId: string,
  providerId: string,
  changes: SamlProviderChanges,
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [organizationId, providerId];
  for (const column of CHANGEABLE) {
    if (!(column in changes)) continue;
    params.push(changes[column]);
    sets.push(`${column} = $${params.length}`);
  }
  if (sets.length === 0) return;
  await db.query(`UPDATE saml_providers SET ${sets.join(', ')} WHERE organization_id = $1 AND id = $2`, params);
}

/** Deletes a provider; whether there was one. */
export async function deleteSamlProviderRow(
  db: Queryable,
  organizationId: string,
  providerId: string,
): Promise<boolean> {
  const rows = await db.query('DELETE FROM saml_providers WHERE organization_id = $1 AND id = $2 RETURNING id', [
    organizationId,
    providerId,
  ]);
  return rows.length > 0;
}

/**
 * Records an accepted assertion id until `expiresAt`; false when it was
 * recorded before (a replay), whichever process saw it first.
 */
export async function recordAssertionOnce(db: Queryable, assertionId: string, expiresAt: Date): Promise<boolean> {
  const rows = await db.query(
    'INSERT INTO saml_assertions_seen (id, expires_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id',
    [assertionId, expiresAt],
  );
  return rows.length > 0;
}

/** Forgets the assertion ids that expired before `now` (they would be refused as expired anyway). */
export async function purgeExpiredAssertions(db: Queryable, now: Date): Promise<number> {
  const rows = await db.query('DELETE FROM saml_assertions_seen WHERE expires_at <= $1 RETURNING id', [now]);
  return rows.length;
}

/** Adds a user to a team unless they are in it already (an owner stays an owner). */
export async function addToTeamIfAbsent(db: Queryable, teamId: string, userId: string): Promise<void> {
  await db.query(
    'INSERT INTO team_members (team_id, user_id, is_owner) VALUES ($1, $2, false) ON CONFLICT (team_id, user_id) DO NOTHING',
    [teamId, userId],
  );
}
