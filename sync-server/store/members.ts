import { queryOne, type Queryable } from './db';
import { selectCountedPage, type CountedPage } from './organizations';

/** One member with its user and counts, as MEMBER_COLUMNS selects it. */
export interface MemberRow {
  user_id: string;
  role: string | null;
  disabled: boolean;
  sso: boolean;
  joined_at: Date;
  last_seen_at: Date | null;
  display_name: string;
  email: string | null;
  photo_url: string | null;
  space_count: number;
  team_count: number;
}

/** Columns of a member row joined with its user and counts; use with MEMBER_FROM. */
const MEMBER_COLUMNS = `m.user_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,
  u.display_name, u.email, u.photo_url, COALESCE(sc.n, 0) AS space_count, COALESCE(tc.n, 0) AS team_count`;

/**
 * Members of organization `$1` with their users, and the per-user counts of
 * direct space grants and teams. The counts are aggregated once per
 * organization and joined, not computed per row: with correlated subselects a
 * page of 1000 members spent most of its time counting.
 */
const MEMBER_FROM = `FROM members m JOIN users u ON u.id = m.user_id
  LEFT JOIN (SELECT cp.principal_id AS user_id, count(*)::int AS n
               FROM content_permissions cp JOIN spaces s ON s.id = cp.resource_id
              WHERE cp.principal_type = 'user' AND cp.resource_type = 'space' AND s.organization_id = $1 AND s.deleted_at IS NULL
              GROUP BY cp.principal_id) sc ON sc.user_id = m.user_id
  LEFT JOIN (SELECT tm.user_id, count(*)::int AS n
               FROM team_members tm JOIN teams t ON t.id = tm.team_id
              WHERE t.organization_id = $1
              GROUP BY tm.user_id) tc ON tc.user_id = m.user_id`;

/** One member of an organization with its user and counts, or undefined. */
export function loadMemberRow(db: Queryable, organizationId: string, userId: string): Promise<MemberRow | undefined> {
  return queryOne<MemberRow>(
    db,
    `SELECT ${MEMBER_COLUMNS} ${MEMBER_FROM} WHERE m.organization_id = $1 AND m.user_id = $2`,
    [organizationId, userId],
  );
}

/** The filters and order of a member list. */
export interface MemberListQuery {
  /** A role, or 'guest' for members without one. */
  role?: string;
  /** Case-insensitive match on display name and email. */
  search?: string;
  sort: 'joinedAt' | 'lastSeenAt' | 'name';
  order: 'asc' | 'desc';
}

const SORT_COLUMNS: Record<MemberListQuery['sort'], string> = {
  joinedAt: 'm.joined_at',
  lastSeenAt: 'm.last_seen_at',
  name: 'lower(u.display_name)',
};

/** Escapes LIKE wildcards so a search for "50%" or "a_b" matches those characters. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One page of an organization's members (read-cached: any write drops it). */
export function listMemberRows(
  db: Queryable,
  organizationId: string,
  q: MemberListQuery,
  page: { limit: number; offset: number },
): Promise<CountedPage<MemberRow>> {
  const params: unknown[] = [organizationId];
  const where = ['m.organization_id = $1'];
  if (q.role === 'guest') where.push('m.role IS NULL');
  else if (q.role) {
    params.push(q.role);
    where.push(`m.role = $${params.length}`);
  }
  if (q.search) {
    params.push(likePattern(q.search));
    where.push(`(u.display_name ILIKE $${params.length} OR u.email ILIKE $${params.length})`);
  }
  // Sorting by last activity only makes sense for members who have been active.
  if (q.sort === 'lastSeenAt') where.push('m.last_seen_at IS NOT NULL');
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  return selectCountedPage<MemberRow>(
    db,
    {
      columns: MEMBER_COLUMNS,
      from: `${MEMBER_FROM} WHERE ${where.join(' AND ')}`,
      order: `${SORT_COLUMNS[q.sort]} ${dir}, m.user_id ${dir}`,
      params,
      cached: true,
    },
    page,
  );
}

/** The state of one membership row, whatever it is (disabled included). */
export interface MemberState {
  role: string | null;
  disabled: boolean;
  sso: boolean;
}

/** A membership's state, or undefined; `lock` holds the row until the transaction ends. */
export function loadMemberState(
  db: Queryable,
  organizationId: string,
  userId: string,
  options: { lock?: boolean } = {},
): Promise<MemberState | undefined> {
  return queryOne<MemberState>(
    db,
    `SELECT role, disabled, sso FROM members WHERE organization_id = $1 AND user_id = $2${options.lock ? ' FOR UPDATE' : ''}`,
    [organizationId, userId],
  );
}

/** Whether the user has a membership row in the organization (disabled ones included). */
export async function memberExists(db: Queryable, organizationId: string, userId: string): Promise<boolean> {
  return (await loadMemberState(db, organizationId, userId)) !== undefined;
}

/** Which of `userIds` are active (not disabled) members of the organization. */
export async function activeMemberIds(db: Queryable, organizationId: string, userIds: string[]): Promise<Set<string>> {
  const rows = await db.query<{ user_id: string }>(
    'SELECT user_id FROM members WHERE organization_id = $1 AND user_id = ANY($2::text[]) AND NOT disabled',
    [organizationId, userIds],
  );
  return new Set(rows.map((r) => r.user_id));
}

/** How many active admins the organization has besides `userId`. */
export async function countOtherActiveAdmins(db: Queryable, organizationId: string, userId: string): Promise<number> {
  const row = await queryOne<{ n: number }>(
    db,
    "SELECT count(*)::int AS n FROM members WHERE organization_id = $1 AND user_id <> $2 AND role = 'admin' AND NOT disabled",
    [organizationId, userId],
  );
  return Number(row?.n ?? 0);
}

/**
 * Inserts a membership unless the user already has one; true when it did.
 * ON CONFLICT: a concurrent join of the same user must not fail with a duplicate key.
 */
export async function insertMember(
  db: Queryable,
  m: { organizationId: string; userId: string; role: string | null; sso: boolean; joinedAt: Date },
): Promise<boolean> {
  const inserted = await db.query(
    `INSERT INTO members (organization_id, user_id, role, sso, joined_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (organization_id, user_id) DO NOTHING RETURNING user_id`,
    [m.organizationId, m.userId, m.role, m.sso, m.joinedAt],
  );
  return inserted.length > 0;
}

/** Sets a member's role (null = guest); false when there is no such member. */
export async function setMemberRole(
  db: Queryable,
  organizationId: string,
  userId: string,
  role: string | null,
): Promise<boolean> {
  const updated = await db.query(
    'UPDATE members SET role = $3 WHERE organization_id = $1 AND user_id = $2 RETURNING user_id',
    [organizationId, userId, role],
  );
  return updated.length > 0;
}

/** Disables or enables a membership (its role, teams and grants stay); false when there is no such member. */
export async function setMemberDisabled(
  db: Queryable,
  organizationId: string,
  userId: string,
  disabled: boolean,
): Promise<boolean> {
  const updated = await db.query(
    'UPDATE members SET disabled = $3 WHERE organization_id = $1 AND user_id = $2 RETURNING user_id',
    [organizationId, userId, disabled],
  );
  return updated.length > 0;
}

/** Sets a member's role and adds the SSO flag when `addSso` (never removes it). */
export async function setMemberRoleAndSso(
  db: Queryable,
  organizationId: string,
  userId: string,
  role: string | null,
  addSso: boolean,
): Promise<void> {
  await db.query('UPDATE members SET role = $3, sso = sso OR $4 WHERE organization_id = $1 AND user_id = $2', [
    organizationId,
    userId,
    role,
    addSso,
  ]);
}

/** Marks a member as an SSO member; false when there is no such member. */
export async function markSsoMember(db: Queryable, organizationId: string, userId: string): Promise<boolean> {
  const updated = await db.query(
    'UPDATE members SET sso = true WHERE organization_id = $1 AND user_id = $2 RETURNING user_id',
    [organizationId, userId],
  );
  return updated.length > 0;
}

/** Records when a member was last active in the organization. */
export async function touchMemberLastSeen(
  db: Queryable,
  organizationId: string,
  userId: string,
  at: Date,
): Promise<void> {
  await db.query('UPDATE members SET last_seen_at = $3 WHERE organization_id = $1 AND user_id = $2', [
    organizationId,
    userId,
    at,
  ]);
}

/**
 * Deletes a membership with the user's team memberships and direct grants on
 * this organization's content, so rejoining later starts from a clean slate.
 * False (and nothing deleted) when there was no such member. Call inside a
 * transaction.
 */
export async function deleteMemberWithAccess(tx: Queryable, organizationId: string, userId: string): Promise<boolean> {
  const removed = await tx.query('DELETE FROM members WHERE organization_id = $1 AND user_id = $2 RETURNING user_id', [
    organizationId,
    userId,
  ]);
  if (removed.length === 0) return false;
  await tx.query(
    'DELETE FROM team_members WHERE user_id = $2 AND team_id IN (SELECT id FROM teams WHERE organization_id = $1)',
    [organizationId, userId],
  );
  await tx.query(
    `DELETE FROM content_permissions
      WHERE principal_type = 'user' AND principal_id = $2
        AND ((resource_type = 'space' AND resource_id IN (SELECT id FROM spaces WHERE organization_id = $1))
          OR (resource_type = 'collection' AND resource_id IN (SELECT id FROM collections WHERE organization_id = $1)))`,
    [organizationId, userId],
  );
  return true;
}
