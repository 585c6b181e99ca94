import type { Static } from 'typebox';
import { verificationRecord } from '../../identity/domain-dns';
import type { DomainClaimRow } from '../../store/domain-claims';
import type { DomainClaimSchema } from './schemas';

/** Row -> the API's domain claim. */
export function presentDomainClaim(row: DomainClaimRow, emailDomains: string[]): Static<typeof DomainClaimSchema> {
  return {
    object: 'domain',
    domain: row.domain,
    status: row.verified_at ? 'verified' : 'pending',
    ...(row.verified_by ? { verifiedBy: row.verified_by } : {}),
    ...(row.verified_at ? { verifiedAt: row.verified_at.toISOString() } : {}),
    createdAt: row.created_at.toISOString(),
    emailDomain: emailDomains.includes(row.domain),
    dnsRecord: verificationRecord(row.domain, row.token),
  };
}
