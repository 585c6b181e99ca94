import type { Queryable } from './db';
import { cachedRead } from './read-cache';

/** A membership as the store reads it (a raw role string; `member: false` when there is no active membership). */
export interface MembershipFacts {
  organizationId: string;
  userId: string;
  member: boolean;
  role: string | null;
  teamIds: readonly string[];
}

/** What the store reads for one caller in one organization: its collections and the caller's direct grants. */
export interface ContentGrantFacts {
  collections: readonly { id: string; parentId: string | null; defaultLevel: string | null }[];
  /** Grants to the caller or one of their teams, on a space or collection id. */
  grants: readonly { resourceId: string; role: string }[];
}

/**
 * The facts access decisions are made from, read through the read cache (a
 * write anywhere invalidates them; other processes' writes arrive over the
 * fan-out). Policy turns them into roles; nothing here decides anything.
 */

/** A caller's membership row (role, disabled) and their team ids in one organization. */
export function loadMembershipFacts(db: Queryable, organizationId: string, userId: string): Promise<MembershipFacts> {
  return cachedRead(db, `membership:${organizationId}:${userId}`, async () => {
    const rows = await db.query<{ role: string | null; disabled: boolean; team_ids: string[] | null }>(
      `SELECT m.role, m.disabled,
              (SELECT array_agg(tm.team_id) FROM team_members tm JOIN teams t ON t.id = tm.team_id
                WHERE tm.user_id = m.user_id AND t.organization_id = m.organization_id) AS team_ids
         FROM members m WHERE m.organization_id = $1 AND m.user_id = $2`,
      [organizationId, userId],
    );
    const row = rows[0];
    const member = !!row && !row.disabled;
    return {
      organizationId,
      userId,
      member,
      role: member ? row.role : null,
      teamIds: member ? (row.team_ids ?? []) : [],
    };
  });
}

/** The organization's collections and the caller's (and their teams') direct grants on its content. */
export function loadContentGrantFacts(
  db: Queryable,
  membership: { organizationId: string; userId: string; teamIds: readonly string[] },
): Promise<ContentGrantFacts> {
  return cachedRead(db, `access:${membership.organizationId}:${membership.userId}`, async () => {
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
    return {
      collections: collections.map((c) => ({ id: c.id, parentId: c.parent_id, defaultLevel: c.default_level })),
      grants: grants.map((g) => ({ resourceId: g.resource_id, role: g.role })),
    };
  });
}
