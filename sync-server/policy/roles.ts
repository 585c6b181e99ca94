/**
 * The role lattice: admin > create > review > edit > comment > read.
 * `null` is "no role" (a guest's org role, or no access to a resource).
 */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export type RoleOrNone = Role | null;

const RANK: Record<Role, number> = { read: 1, comment: 2, edit: 3, review: 4, create: 5, admin: 6 };

export function rank(role: RoleOrNone): number {
  return role ? RANK[role] : 0;
}

/** True when `role` is at least `required`. */
export function atLeast(role: RoleOrNone, required: Role): boolean {
  return rank(role) >= RANK[required];
}

/** The higher of two roles (join of the lattice). */
export function maxRole(a: RoleOrNone, b: RoleOrNone): RoleOrNone {
  return rank(a) >= rank(b) ? a : b;
}

/** The lower of two roles (meet of the lattice). */
export function minRole(a: RoleOrNone, b: RoleOrNone): RoleOrNone {
  return rank(a) <= rank(b) ? a : b;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}
