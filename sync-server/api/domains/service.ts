import type { AppContext } from '../../context';
import { findVerificationRecord, verificationRecord } from '../../identity/domain-dns';
import type { Principal } from '../../identity/principal';
import { ApiError, badRequest, conflict, notFound } from '../../http/errors';
import { decideInstance } from '../../policy/instance';
import {
  addDomainClaims,
  deleteDomainClaim,
  findDomainClaim,
  listDomainClaims,
  markDomainVerified,
  verifiedDomainOwner,
  type DomainClaimRow,
} from '../../store/domain-claims';
import { loadOrganizationRow, updateOrganizationRow } from '../../store/organizations';
import { actorForDelete, authorize, enforce, organization, requireOrgPermission } from '../authorize';
import { presentDomainClaim } from './present';

/**
 * An organization's domains and their proof (a Folio extension): the claims
 * its admins make (every `emailDomains` entry is one, and so is any domain a
 * site's custom hostname lies under), proved by a DNS TXT record or approved
 * by the instance admin. Nothing acts on a domain before it is proved.
 */

const lower = (domain: string) => domain.toLowerCase();

async function emailDomainsOf(ctx: AppContext, organizationId: string): Promise<string[]> {
  const org = await loadOrganizationRow(ctx.db, organizationId);
  if (!org) throw notFound('Organization');
  return org.email_domains;
}

async function present(ctx: AppContext, organizationId: string, row: DomainClaimRow) {
  return presentDomainClaim(row, await emailDomainsOf(ctx, organizationId));
}

const takenMessage = (domain: string) =>
  `The domain "${domain}" is already verified by another organization on this server`;

/** The organization's claims (its admins). */
export async function listDomains(ctx: AppContext, p: Principal, organizationId: string) {
  await requireOrgPermission(ctx.db, p, organizationId, 'manage-domains');
  const [rows, emailDomains] = await Promise.all([
    listDomainClaims(ctx.db, organizationId),
    emailDomainsOf(ctx, organizationId),
  ]);
  return { items: rows.map((r) => presentDomainClaim(r, emailDomains)), count: rows.length };
}

/** Claims a domain (pending until proved). A domain another organization verified is a 409. */
export async function addDomain(ctx: AppContext, p: Principal, organizationId: string, domain: string) {
  await requireOrgPermission(ctx.db, p, organizationId, 'manage-domains');
  const name = lower(domain);
  const owner = await verifiedDomainOwner(ctx.db, name);
  if (owner !== undefined && owner !== organizationId) throw conflict(takenMessage(name));
  await addDomainClaims(ctx.db, organizationId, [name], ctx.clock.now());
  return present(ctx, organizationId, (await findDomainClaim(ctx.db, organizationId, name))!);
}

async function requireClaim(ctx: AppContext, organizationId: string, domain: string): Promise<DomainClaimRow> {
  const claim = await findDomainClaim(ctx.db, organizationId, lower(domain));
  if (!claim) throw notFound('Domain');
  return claim;
}

/**
 * Checks the claim's TXT record through the configured DNS servers and marks
 * it verified when it is there. A missing record is a 400 saying what to
 * publish (and what was found instead); DNS that does not answer, a 502.
 */
export async function verifyDomain(ctx: AppContext, p: Principal, organizationId: string, domain: string) {
  await requireOrgPermission(ctx.db, p, organizationId, 'manage-domains');
  const claim = await requireClaim(ctx, organizationId, domain);
  if (claim.verified_at) return present(ctx, organizationId, claim);
  const owner = await verifiedDomainOwner(ctx.db, claim.domain);
  if (owner !== undefined && owner !== organizationId) throw conflict(takenMessage(claim.domain));
  const proof = await findVerificationRecord(ctx.config.dnsServers, claim.domain, claim.token);
  const record = verificationRecord(claim.domain, claim.token);
  if (!proof.found) {
    if ('error' in proof)
      throw new ApiError(502, `The DNS servers did not answer for ${record.name} (${proof.error}); try again later`);
    const seen = proof.seen.length > 0 ? ` (found: ${proof.seen.map((s) => JSON.stringify(s)).join(', ')})` : '';
    throw badRequest(
      `Domain not verified: publish a TXT record "${record.value}" at ${record.name}${seen}, then verify again`,
    );
  }
  if (!(await markDomainVerified(ctx.db, organizationId, claim.domain, 'dns', ctx.clock.now())))
    throw conflict(takenMessage(claim.domain));
  ctx.log.info({ organizationId, domain: claim.domain }, 'domain verified by DNS');
  return present(ctx, organizationId, (await findDomainClaim(ctx.db, organizationId, claim.domain))!);
}

/**
 * The instance admin vouches for a domain without DNS (an instance whose
 * domains have no public DNS, say): claimed if it was not, and verified.
 */
export async function approveDomain(ctx: AppContext, p: Principal, organizationId: string, domain: string) {
  enforce(decideInstance(p, 'approve-domains'));
  const name = lower(domain);
  if (!(await loadOrganizationRow(ctx.db, organizationId))) throw notFound('Organization');
  const now = ctx.clock.now();
  await addDomainClaims(ctx.db, organizationId, [name], now);
  if (!(await markDomainVerified(ctx.db, organizationId, name, 'admin', now))) throw conflict(takenMessage(name));
  ctx.log.info({ organizationId, domain: name, by: p.userId }, 'domain approved by the instance admin');
  return present(ctx, organizationId, (await findDomainClaim(ctx.db, organizationId, name))!);
}

/** Drops a claim (verified or not) and the domain from `emailDomains`; 204 also when there was none, or for a non-member. */
export async function removeDomain(ctx: AppContext, p: Principal, organizationId: string, domain: string) {
  const actor = await actorForDelete(ctx.db, p, organizationId);
  if (!actor) return;
  authorize(actor, 'manage-domains', organization(organizationId));
  const name = lower(domain);
  await ctx.db.transaction(async (tx) => {
    await deleteDomainClaim(tx, organizationId, name);
    const org = await loadOrganizationRow(tx, organizationId);
    if (org?.email_domains.includes(name))
      await updateOrganizationRow(tx, organizationId, { emailDomains: org.email_domains.filter((d) => d !== name) });
  });
}
