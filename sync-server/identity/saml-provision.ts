import type { Queryable, Db } from '../store/db';
import { insertMember, loadMemberState, setMemberRoleAndSso } from '../store/members';
import { verifiedDomainOwner } from '../store/domain-claims';
import { wasRemoved } from '../store/member-removals';
import { addToTeamIfAbsent, type SamlProviderRow } from '../store/saml-providers';
import { emailDomain, findOrCreateUserByEmail } from './accounts';
import { SamlRefusal } from './saml';
import type { SamlPerson } from './saml-assertion';

/**
 * Just-in-time provisioning after a verified SAML assertion: the user with
 * that email (made now if new), a member of the provider's organization. A
 * new member gets the provider's default role and team; every member who
 * signs in this way is flagged `sso` (so an organization with `sso` on can
 * require it). An existing member keeps their role. A disabled membership is
 * refused: an admin turned it off.
 *
 * A valid signature proves only that the provider's own key signed the
 * assertion, and any organization can register a provider with a key of its
 * choosing. So the address must be in a domain the provider's organization
 * has verified (DNS or the instance admin): otherwise anyone could create an
 * organization and sign in as anybody else on the instance.
 */
export async function provisionSamlMember(
  db: Pick<Db, 'transaction'> & Queryable,
  provider: SamlProviderRow,
  person: SamlPerson,
  now: Date,
): Promise<{ userId: string; createdUser: boolean; addedMember: boolean }> {
  const domain = emailDomain(person.email);
  if (!domain || (await verifiedDomainOwner(db, domain)) !== provider.organization_id)
    throw new SamlRefusal(
      403,
      `This identity provider may sign in only addresses of domains its organization has verified, and ${domain || 'this address'} is not one of them.`,
    );
  // Outside the transaction: findOrCreate recovers from a concurrent insert by reading again.
  const { userId, created } = await findOrCreateUserByEmail(db, person);
  const addedMember = await db.transaction(async (tx) => {
    const existing = await loadMemberState(tx, provider.organization_id, userId, { lock: true });
    if (existing?.disabled)
      throw new SamlRefusal(403, 'Your membership of this organization is disabled: ask an administrator.');
    if (existing) {
      if (!existing.sso) await setMemberRoleAndSso(tx, provider.organization_id, userId, existing.role, true);
      return false;
    }
    // An admin removed this person: only an invite they accept brings them back, not the next sign-in.
    if (await wasRemoved(tx, provider.organization_id, userId))
      throw new SamlRefusal(403, 'An administrator removed you from this organization: ask them to invite you again.');
    const added = await insertMember(tx, {
      organizationId: provider.organization_id,
      userId,
      role: provider.default_role,
      sso: true,
      joinedAt: now,
    });
    if (added && provider.default_team_id) await addToTeamIfAbsent(tx, provider.default_team_id, userId);
    return added;
  });
  return { userId, createdUser: created, addedMember };
}
