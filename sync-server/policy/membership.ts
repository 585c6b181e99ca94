import type { MembershipFacts } from '../store/access';
import { isRole, type RoleOrNone } from './roles';

/** What policy knows about the caller in one organization. */
export interface OrgMembership {
  organizationId: string;
  userId: string;
  /** null = guest; undefined = not a member at all (or disabled). */
  role: RoleOrNone | undefined;
  teamIds: readonly string[];
}

const built = new WeakMap<MembershipFacts, OrgMembership>();

/** The policy view of stored membership facts (memoized per facts object, which the read cache keeps stable). */
export function membershipOf(facts: MembershipFacts): OrgMembership {
  let m = built.get(facts);
  if (!m) {
    m = {
      organizationId: facts.organizationId,
      userId: facts.userId,
      role: !facts.member ? undefined : isRole(facts.role) ? facts.role : null,
      teamIds: facts.teamIds,
    };
    built.set(facts, m);
  }
  return m;
}
