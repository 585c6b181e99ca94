import type { Db } from './store/db';
import { addDomainClaims, markDomainVerified, verifiedDomainOwner } from './store/domain-claims';
import { verificationRecord } from './identity/domain-dns';

/**
 * The admin CLI's domain commands: the instance admin's approval of an
 * organization's domain claim without DNS (the API's approveOrganizationDomain
 * from a shell), and the list of every claim with its TXT record.
 */

/** A well-formed request that cannot be done (the CLI exits 1 with the message). */
export class DomainCommandFailure extends Error {}

const DOMAIN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Whether `domain` (lower-cased) is a DNS name of two labels or more. */
export const isDomainName = (domain: string) => DOMAIN.test(domain.toLowerCase()) && domain.length <= 253;

/** Verifies `domain` for the organization on the instance admin's word; returns the line to print. */
export async function approveDomainFromCli(db: Db, organizationId: string, domain: string): Promise<string> {
  const name = domain.toLowerCase();
  const org = await db.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId]);
  if (org.length === 0) throw new DomainCommandFailure(`no organization with id ${organizationId}`);
  const owner = await verifiedDomainOwner(db, name);
  if (owner !== undefined && owner !== organizationId)
    throw new DomainCommandFailure(`${name} is already verified by organization ${owner}`);
  await db.transaction(async (tx) => {
    await addDomainClaims(tx, organizationId, [name], new Date());
    await markDomainVerified(tx, organizationId, name, 'admin', new Date());
  });
  return `verified ${name} for organization ${organizationId}`;
}

/** Every claim of the instance: organization, domain, status, and the TXT record that proves it. */
export async function listDomainRows(db: Db): Promise<string[][]> {
  const rows = await db.query<{ organization_id: string; domain: string; token: string; verified_by: string | null }>(
    'SELECT organization_id, domain, token, verified_by FROM domain_claims ORDER BY domain, organization_id',
  );
  return rows.map((r) => {
    const record = verificationRecord(r.domain, r.token);
    return [
      r.organization_id,
      r.domain,
      r.verified_by ? `verified (${r.verified_by})` : 'pending',
      `${record.name} TXT "${record.value}"`,
    ];
  });
}
