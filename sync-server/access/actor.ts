import { AccessIndex, NO_GRANTS } from '../policy/access-index';
import { membershipOf } from '../policy/membership';
import type { Actor } from '../policy/subject';
import type { Queryable } from '../store/db';
import { loadContentGrantFacts, loadMembershipFacts } from '../store/access';
import { installationActorFacts } from './installation-actor';

/**
 * The caller inside one organization, ready for policy: their membership and
 * their content access index, from cached facts (two queries at most, usually
 * none). Admins and non-members need no grants: their role does not depend on them.
 *
 * An integration's bot (identity/integration-tokens.ts) is no member anywhere; an installation's
 * bot is a guest of its installation's organization whose grants are the spaces it is installed
 * on (installation-actor.ts). Policy then decides for them as for anyone else.
 */
export async function loadActor(db: Queryable, organizationId: string, userId: string): Promise<Actor> {
  const bot = await installationActorFacts(db, organizationId, userId);
  if (bot)
    return {
      userId,
      membership: membershipOf(bot.membership),
      access: AccessIndex.of(membershipOf(bot.membership), bot.grants),
    };
  const membership = membershipOf(await loadMembershipFacts(db, organizationId, userId));
  const needsGrants = membership.role !== undefined && membership.role !== 'admin';
  const grants = needsGrants ? await loadContentGrantFacts(db, membership) : NO_GRANTS;
  return { userId, membership, access: AccessIndex.of(membership, grants) };
}
