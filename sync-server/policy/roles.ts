/**
 * The role lattice: admin > create > review > edit > comment > read, defined once in
 * shared/roles.ts for the server and the app. `null` is "no role" (a guest's org role, or no
 * access to a resource).
 */
export { atLeast, isRole, maxRole, minRole, type Role, type RoleOrNone } from '../../shared/roles';
export { roleRank as rank } from '../../shared/roles';

/** The roles lowest first (note: shared/roles.ts's ROLES lists them highest first, as GitBook does). */
export { ROLES_LOW_TO_HIGH as ROLES } from '../../shared/roles';
