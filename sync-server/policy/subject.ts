import type { AccessIndex } from './access-index';
import type { OrgMembership } from './membership';
import type { RoleOrNone } from './roles';

/**
 * A caller inside one organization, with everything needed to work out their
 * role on any of its resources: their membership and their content access.
 * Built by `access/` from facts the store loaded.
 */
export interface Actor {
  userId: string;
  membership: OrgMembership;
  access: AccessIndex;
}

/**
 * The caller as one resource's rules see it: who they are and their role on
 * that resource (for an organization its member role, undefined for a
 * non-member and null for a guest; for content, null when they have no access).
 * Decisions and `permissions` objects are functions of this and the resource's
 * facts, so what a client is told it may do is what it may do.
 */
export interface Subject {
  /** Needed only where ownership matters (posts); a role-only question may leave it out. */
  userId?: string;
  role: RoleOrNone | undefined;
}
