/**
 * The roles of an organization, space or collection, shared by the server and the app: GitBook's
 * `MemberRole`, highest first (admin > create > review > edit > comment > read). `null` stands for
 * "no role": a guest's organization role, or no access to a resource.
 */
export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type Role = (typeof ROLES)[number];
export type RoleOrNone = Role | null;

/** The roles lowest first (the order SQL comparisons of stored roles expect). */
export const ROLES_LOW_TO_HIGH: readonly Role[] = [...ROLES].reverse();

/** The rank of each role: read 1 … admin 6 (0 is "no role", see roleRank). */
export const ROLE_RANK: Readonly<Record<Role, number>> = Object.fromEntries(
  ROLES_LOW_TO_HIGH.map((role, i) => [role, i + 1]),
) as Record<Role, number>;

/** The rank of a role, 0 for none: comparing ranks compares roles. */
export function roleRank(role: RoleOrNone): number {
  return role ? ROLE_RANK[role] : 0;
}

/** True when `role` is at least `required`. */
export function atLeast(role: RoleOrNone, required: Role): boolean {
  return roleRank(role) >= ROLE_RANK[required];
}

/** The higher of two roles (join of the lattice). */
export function maxRole(a: RoleOrNone, b: RoleOrNone): RoleOrNone {
  return roleRank(a) >= roleRank(b) ? a : b;
}

/** The lower of two roles (meet of the lattice). */
export function minRole(a: RoleOrNone, b: RoleOrNone): RoleOrNone {
  return roleRank(a) <= roleRank(b) ? a : b;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** A role as people read it ("Admin", "Guest" for null, "Inherit" for a default level that follows its parent). */
export function roleLabel(role: RoleOrNone | 'inherit'): string {
  if (role === null) return 'Guest';
  if (role === 'inherit') return 'Inherit';
  return role[0]!.toUpperCase() + role.slice(1);
}
