import type { Queryable } from '../store/db';
import { isRole, maxRole, minRole, type Role, type RoleOrNone } from './roles';
import { cachedRead } from '../store/read-cache';

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

/** The caller's membership (org role and teams) in one organization, read through the read cache. */
export function loadMembership(db: Queryable, organizationId: string, userId: string): Promise<OrgMembership> {
  return cachedRead(db, `membership:${organizationId}:${userId}`, () => queryMembership(db, organizationId, userId));
}

async function queryMembership(db: Queryable, organizationId: string, userId: string): Promise<OrgMembership> {
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
 * Everything needed to answer "what role does this caller have on node X" for
 * any node of one organization, loaded in two queries. Lists use one index for
 * all their items instead of a query per item.
 *
 * The rules:
 * - organization admins administer all its content;
 * - members get the inherited default level (capped by their org role);
 * - anyone, guests included, gets direct grants on the node or an ancestor
 *   collection, to them or to one of their teams;
 * - the highest of these wins; null means no access at all.
 */
export class AccessIndex {
  private constructor(
    readonly membership: OrgMembership,
    private readonly collections: Map<string, ContentNode>,
    private readonly grants: Map<string, Role>,
  ) {}

  /** The index for one caller, read through the database's read cache. */
  static load(db: Queryable, membership: OrgMembership): Promise<AccessIndex> {
    return cachedRead(db, `access:${membership.organizationId}:${membership.userId}`, () =>
      AccessIndex.query(db, membership),
    );
  }

  private static async query(db: Queryable, membership: OrgMembership): Promise<AccessIndex> {
    if (membership.role === undefined || membership.role === 'admin')
      return new AccessIndex(membership, new Map(), new Map());
    const [collections, grants] = await Promise.all([
      db.query<{ id: string; parent_id: string | null; default_level: string | null }>(
        'SELECT id, parent_id, default_level FROM collections WHERE organization_id = $1',
        [membership.organizationId],
      ),
      db.query<{ resource_id: string; role: string }>(
        `SELECT resource_id, role FROM content_permissions
          WHERE (principal_type = 'user' AND principal_id = $1) OR (principal_type = 'team' AND principal_id = ANY($2::text[]))`,
        [membership.userId, membership.teamIds],
      ),
    ]);
    const byId = new Map<string, ContentNode>();
    for (const c of collections) {
      byId.set(c.id, {
        type: 'collection',
        id: c.id,
        organizationId: membership.organizationId,
        parentId: c.parent_id,
        defaultLevel: c.default_level,
      });
    }
    const grantMap = new Map<string, Role>();
    for (const g of grants) {
      if (!isRole(g.role)) continue;
      grantMap.set(g.resource_id, maxRole(grantMap.get(g.resource_id) ?? null, g.role) as Role);
    }
    return new AccessIndex(membership, byId, grantMap);
  }

  /** The node followed by its ancestor collections, nearest first. */
  private chain(node: ContentNode): ContentNode[] {
    const chain = [node];
    let parentId = node.parentId;
    // Depth guard: a corrupted parent loop must not spin forever.
    for (let depth = 0; parentId && depth < 64; depth++) {
      const parent = this.collections.get(parentId);
      if (!parent) break;
      chain.push(parent);
      parentId = parent.parentId;
    }
    return chain;
  }

  /** The caller's effective role on a space or collection of this organization. */
  roleOf(node: ContentNode): RoleOrNone {
    const m = this.membership;
    if (m.role === undefined || node.organizationId !== m.organizationId) return null;
    if (m.role === 'admin') return 'admin';
    const chain = this.chain(node);
    let role: RoleOrNone = m.role === null ? null : inheritedDefault(chain, m.role);
    for (const n of chain) role = maxRole(role, this.grants.get(n.id) ?? null);
    return role;
  }
}

/** The caller's effective role on one node (see AccessIndex for the rules). */
export async function contentRole(db: Queryable, node: ContentNode, m: OrgMembership): Promise<RoleOrNone> {
  return (await AccessIndex.load(db, m)).roleOf(node);
}
