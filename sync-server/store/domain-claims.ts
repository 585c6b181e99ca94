import { randomBytes } from 'node:crypto';
import { queryOne, type Queryable } from './db';

/**
 * An organization's claim to a domain (migration 0016): pending until proved
 * by a DNS TXT record or approved by the instance admin. Only a verified
 * claim lets anything act on the domain (SSO routing, SAML provisioning,
 * auto-join, SSO-only enforcement, a site's custom hostname).
 */
export interface DomainClaimRow {
  organization_id: string;
  domain: string;
  token: string;
  created_at: Date;
  verified_at: Date | null;
  verified_by: 'dns' | 'admin' | null;
}

const COLUMNS = 'c.organization_id, c.domain, c.token, c.created_at, c.verified_at, c.verified_by';

/** A new claim token: 24 random bytes, base64url (what the TXT record must hold). */
const newToken = () => randomBytes(24).toString('base64url');

/** Adds pending claims for `domains` (lower-case) the organization does not claim yet; existing claims stay. */
export async function addDomainClaims(db: Queryable, organizationId: string, domains: string[], now: Date) {
  for (const domain of domains)
    await db.query(
      `INSERT INTO domain_claims (organization_id, domain, token, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (organization_id, domain) DO NOTHING`,
      [organizationId, domain, newToken(), now],
    );
}

/** Drops the organization's claims to domains outside `keep` whose kind is an email domain only (see callers). */
export async function deleteDomainClaim(db: Queryable, organizationId: string, domain: string): Promise<boolean> {
  const rows = await db.query<{ domain: string }>(
    'DELETE FROM domain_claims WHERE organization_id = $1 AND domain = $2 RETURNING domain',
    [organizationId, domain],
  );
  return rows.length > 0;
}

/** The organization's claims, domain order (at most 200: an organization declares at most 50 email domains). */
export function listDomainClaims(db: Queryable, organizationId: string): Promise<DomainClaimRow[]> {
  return db.query<DomainClaimRow>(
    `SELECT ${COLUMNS} FROM domain_claims c WHERE c.organization_id = $1 ORDER BY c.domain LIMIT 200`,
    [organizationId],
  );
}

/** One claim of the organization, or undefined. */
export function findDomainClaim(
  db: Queryable,
  organizationId: string,
  domain: string,
): Promise<DomainClaimRow | undefined> {
  return queryOne<DomainClaimRow>(
    db,
    `SELECT ${COLUMNS} FROM domain_claims c WHERE c.organization_id = $1 AND c.domain = $2`,
    [organizationId, domain],
  );
}

/** The organization that verified `domain`, if any (at most one, by the unique index). */
export async function verifiedDomainOwner(db: Queryable, domain: string): Promise<string | undefined> {
  return (
    await queryOne<{ organization_id: string }>(
      db,
      'SELECT organization_id FROM domain_claims WHERE domain = $1 AND verified_at IS NOT NULL',
      [domain],
    )
  )?.organization_id;
}

/**
 * Marks a claim verified. False when another organization verified the domain
 * first (the partial unique index refuses a second verified claim; checked
 * before the write so neither engine logs a constraint error).
 */
export async function markDomainVerified(
  db: Queryable,
  organizationId: string,
  domain: string,
  by: 'dns' | 'admin',
  now: Date,
): Promise<boolean> {
  const owner = await verifiedDomainOwner(db, domain);
  if (owner !== undefined && owner !== organizationId) return false;
  if (owner === organizationId) return true;
  const rows = await db.query<{ domain: string }>(
    `UPDATE domain_claims SET verified_at = $3, verified_by = $4
      WHERE organization_id = $1 AND domain = $2 AND NOT EXISTS (
        SELECT 1 FROM domain_claims o WHERE o.domain = $2 AND o.verified_at IS NOT NULL)
      RETURNING domain`,
    [organizationId, domain, now, by],
  );
  return rows.length > 0;
}

/**
 * Whether `organizationId` verified `host` itself or a domain it is under
 * (`docs.corp.example` is covered by a verified `corp.example`).
 */
export async function organizationVerifiedHost(db: Queryable, organizationId: string, host: string): Promise<boolean> {
  const candidates = hostAndParents(host);
  const row = await queryOne<{ one: number }>(
    db,
    `SELECT 1 AS one FROM domain_claims
      WHERE organization_id = $1 AND domain = ANY($2::text[]) AND verified_at IS NOT NULL LIMIT 1`,
    [organizationId, candidates],
  );
  return row !== undefined;
}

/** `a.b.example` -> [`a.b.example`, `b.example`] (never a bare top-level label). */
export function hostAndParents(host: string): string[] {
  const labels = host.toLowerCase().split('.');
  const out: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}
