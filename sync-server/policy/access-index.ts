import type { ContentGrantFacts } from '../store/access';
import type { OrgMembership } from './membership';
import { isRole, maxRole, minRole, type Role, type RoleOrNone } from './roles';

/** A node of the content tree (collection or space) as policy sees it. */
export interface ContentNode {
  type: 'space' | 'collection';
  id: string;
  organizationId: string;
  parentId: string | null;
  /** A role, null (no default), or 'inherit'. */
  defaultLevel: string | null;
}

/** No grants and no collections: what admins and non-members need (their role does not depend on them). */
export const NO_GRANTS: ContentGrantFacts = { collections: [], grants: [] };

/**
 * The default level a node gives every (non-guest) member: the first explicit
 * value walking up the chain; 'inherit' at the top means "the member's org role".
 */
export function inheritedDefault(chain: readonly ContentNode[], orgRole: Role): RoleOrNone {
  for (const node of chain) {
    if (node.defaultLevel === 'inherit') continue;
    // An explicit default never lifts a member above their organization role.
    return node.defaultLevel === null ? null : minRole(isRole(node.defaultLevel) ? node.defaultLevel : null, orgRole);
  }
  return orgRole;
}

const indexes = new WeakMap<ContentGrantFacts, WeakMap<OrgMembership, AccessIndex>>();

/**
 * Answers "what role does this caller have on node X" for any node of one
 * organization. Built from facts the store loaded (pure: no I/O here); lists
 * use one index for all their items.
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
    private readonly collections: ReadonlyMap<string, ContentNode>,
    private readonly grants: ReadonlyMap<string, Role>,
  ) {}

  /** The index of `membership` over `facts` (memoized per pair of objects, which the read cache keeps stable). */
  static of(membership: OrgMembership, facts: ContentGrantFacts): AccessIndex {
    let byMembership = indexes.get(facts);
    if (!byMembership) indexes.set(facts, (byMembership = new WeakMap()));
    let index = byMembership.get(membership);
    if (!index) byMembership.set(membership, (index = AccessIndex.build(membership, facts)));
    return index;
  }

  private static build(membership: OrgMembership, facts: ContentGrantFacts): AccessIndex {
    const collections = new Map<string, ContentNode>();
    for (const c of facts.collections) {
      collections.set(c.id, {
        type: 'collection',
        id: c.id,
        organizationId: membership.organizationId,
        parentId: c.parentId,
        defaultLevel: c.defaultLevel,
      });
    }
    const grants = new Map<string, Role>();
    for (const g of facts.grants) {
      if (!isRole(g.role)) continue;
      grants.set(g.resourceId, maxRole(grants.get(g.resourceId) ?? null, g.role) as Role);
    }
    return new AccessIndex(membership, collections, grants);
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
