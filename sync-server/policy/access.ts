import type { Queryable } from '../store/db';
import { isRole, maxRole, minRole, type Role, type RoleOrNone } from './roles';

/** What policy needs to know about the caller in one organization. */
export interface OrgMembership {
  organizationId: string;
  userId: string;
  /** null = guest; undefined = not a member at all. */
  role: RoleOrNone | undefined;
  teamIds: string[];
}

/** A node of the content tree (collection or space) as policy sees it. */
export interface ContentNode {
  type: 'space' | 'collection';
  id: string;
  organizationId: string;
  parentId: string | null;
  /** A role, null (no default), or 'inherit'. */
  defaultLevel: string | null;
}

/** Loads the caller's membership (org role and teams) in one organization. */
export async function loadMembership(db: Queryable, organizationId: string, userId: string): Promise<OrgMembership> {
  const rows = await db.query<{ role: string | null; disabled: boolean; team_ids: string[] | null }>(
    `SELECT m.role, m.disabled,
            (SELECT array_agg(tm.team_id) FROM team_members tm JOIN teams t ON t.id = tm.team_id
              WHERE tm.user_id = m.user_id AND t.organization_id = m.organization_id) AS team_ids
       FROM members m WHERE m.organization_id = $1 AND m.user_id = $2`,
    [organizationId, userId],
  );
  const row = rows[0];
  if (!row || row.disabled) return { organizationId, userId, role: undefined, teamIds: [] };
  return { organizationId, userId, role: isRole(row.role) ? row.role : null, teamIds: row.team_ids ?? [] };
}

/** True when the caller belongs to the organization (as member or guest). */
export function isOrgMember(m: OrgMembership): boolean {
  return m.role !== undefined;
}

/**
 * Loads a node and its ancestor collections (nearest first), so that one call
 * answers inheritance questions without a query per level.
 */
export async function loadAncestry(db: Queryable, node: ContentNode): Promise<ContentNode[]> {
  const chain: ContentNode[] = [node];
  let parentId = node.parentId;
  // Depth guard: a corrupted parent loop must not spin forever.
  for (let depth = 0; parentId && depth < 64; depth++) {
    const rows = await db.query<{ id: string; organization_id: string; parent_id: string | null; default_level: string | null }>(
      'SELECT id, organization_id, parent_id, default_level FROM collections WHERE id = $1',
      [parentId],
    );
    const c = rows[0];
    if (!c) break;
    chain.push({ type: 'collection', id: c.id, organizationId: c.organization_id, parentId: c.parent_id, defaultLevel: c.default_level });
    parentId = c.parent_id;
  }
  return chain;
}

/** Direct grants (to the user or their teams) on any node of the chain. */
async function loadGrants(db: Queryable, chain: ContentNode[], m: OrgMembership): Promise<RoleOrNone> {
  const resourceIds = chain.map((n) => n.id);
  const rows = await db.query<{ role: string }>(
    `SELECT role FROM content_permissions
      WHERE resource_id = ANY($1::text[])
        AND ((principal_type = 'user' AND principal_id = $2) OR (principal_type = 'team' AND principal_id = ANY($3::text[])))`,
    [resourceIds, m.userId, m.teamIds],
  );
  let best: RoleOrNone = null;
  for (const r of rows) if (isRole(r.role)) best = maxRole(best, r.role);
  return best;
}

/**
 * The default level a node gives every (non-guest) member: the first explicit
 * value walking up the chain; 'inherit' at the top means "the member's org role".
 */
export function inheritedDefault(chain: ContentNode[], orgRole: Role): RoleOrNone {
  for (const node of chain) {
    if (node.defaultLevel === 'inherit') continue;
    // An explicit default never lifts a member above their organization role.
    return node.defaultLevel === null ? null : minRole(isRole(node.defaultLevel) ? node.defaultLevel : null, orgRole);
  }
  return orgRole;
}

/**
 * The caller's effective role on a space or collection:
 * - organization admins administer all its content;
 * - members get the inherited default level (capped by their org role);
 * - anyone, guests included, gets direct grants on the node or an ancestor
 *   collection, to them or to one of their teams;
 * - the highest of these wins. null means no access at all.
 */
export async function contentRole(db: Queryable, node: ContentNode, m: OrgMembership): Promise<RoleOrNone> {
  if (m.role === undefined || m.organizationId !== node.organizationId) return null;
  if (m.role === 'admin') return 'admin';
  const chain = await loadAncestry(db, node);
  const fromDefault = m.role === null ? null : inheritedDefault(chain, m.role);
  return maxRole(fromDefault, await loadGrants(db, chain, m));
}
