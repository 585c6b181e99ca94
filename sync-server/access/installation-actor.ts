import { botOf } from '../identity/integration-tokens';
import type { Role } from '../policy/roles';
import type { ContentGrantFacts, MembershipFacts } from '../store/access';
import type { Queryable } from '../store/db';
import { findInstallationAccess } from '../store/integration-tokens';
import { cachedRead } from '../store/read-cache';

/**
 * What policy is told about an integration's or an installation's bot in one organization,
 * instead of a membership: an integration's own token is no member of any organization; an
 * installation's is a guest (null role) of its installation's organization only, with a direct
 * grant on each space it is installed on (every space of the organization when its
 * `space_selection` is 'all'), of the role its integration's current scopes imply. Site policy
 * follows organization roles only, so a guest sees no site: the sites an installation runs on are
 * opened to its token by api/sites/access.ts, from `installationSites` (docs: "Tokens and scopes").
 */

/** The content role an integration's scopes give its installation on the spaces it is installed on. */
export function roleOfScopes(scopes: readonly string[]): Role | null {
  if (scopes.includes('space:content:write')) return 'edit';
  if (scopes.includes('comments:write')) return 'comment';
  return scopes.some((s) => s.startsWith('space:') || s.startsWith('comments:')) ? 'read' : null;
}

const NOBODY = (organizationId: string, userId: string): MembershipFacts => ({
  organizationId,
  userId,
  member: false,
  role: null,
  teamIds: [],
});

/** The facts of a bot's actor, or undefined when `userId` is a human's (then membership decides). */
export function installationActorFacts(
  db: Queryable,
  organizationId: string,
  userId: string,
): Promise<{ membership: MembershipFacts; grants: ContentGrantFacts } | undefined> {
  const bot = botOf(userId);
  if (!bot) return Promise.resolve(undefined);
  // Cached per organization and bot, as memberships are (the read cache keeps the objects stable, which policy memoizes on).
  return cachedRead(db, `installation-actor:${organizationId}:${userId}`, async () => {
    if (!('installationId' in bot))
      return { membership: NOBODY(organizationId, userId), grants: { collections: [], grants: [] } };
    const access = await findInstallationAccess(db, bot.installationId);
    if (!access || access.organization_id !== organizationId)
      return { membership: NOBODY(organizationId, userId), grants: { collections: [], grants: [] } };
    const role = roleOfScopes(access.scopes);
    return {
      // A guest: member with no role (policy/membership.ts reads a non-role string as null).
      membership: { organizationId, userId, member: true, role: null, teamIds: [] },
      grants: {
        // Grants are on spaces only, so the collections (which only carry defaults for members) are not needed.
        collections: [],
        grants: role ? access.space_ids.map((resourceId) => ({ resourceId, role })) : [],
      },
    };
  });
}

/**
 * The sites of `organizationId` an installation's bot runs on, or undefined when `userId` is not an
 * installation's bot (a human, or an integration's own token, which reads no site).
 */
export async function installationSites(
  db: Queryable,
  organizationId: string,
  userId: string,
): Promise<readonly string[] | undefined> {
  const bot = botOf(userId);
  if (!bot || !('installationId' in bot)) return undefined;
  const access = await cachedRead(db, `installation-sites:${bot.installationId}`, () =>
    findInstallationAccess(db, bot.installationId),
  );
  return access && access.organization_id === organizationId ? access.site_ids : [];
}
