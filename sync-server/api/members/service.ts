import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { listPage, type PageRequest } from '../../http/paging';
import { membershipForDelete, requireFullMember, requireOrgMember, requireOrgRole } from '../../policy/guards';
import type { Role, RoleOrNone } from '../../policy/roles';
import { queryOne, type Queryable } from '../../store/db';
import { cachedQuery, cachedRead } from '../../store/read-cache';
import { assertKeepsAnAdmin } from './membership';
import { MEMBER_COLUMNS, MEMBER_FROM, presentMember, type MemberRow } from './present';

/** The list filters of listMembersInOrganizationById. */
export interface MemberFilters {
  order?: 'asc' | 'desc';
  role?: Role | 'guest';
  search?: string;
  sort?: 'joinedAt' | 'lastSeenAt' | 'name';
}

const SORT_COLUMNS: Record<NonNullable<MemberFilters['sort']>, string> = {
  joinedAt: 'm.joined_at',
  lastSeenAt: 'm.last_seen_at',
  name: 'lower(u.display_name)',
};

/** Escapes LIKE wildcards so a search for "50%" or "a_b" matches those characters. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One member of an organization with counts, or undefined. */
export async function loadMember(
  db: Queryable,
  organizationId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  return queryOne<MemberRow>(
    db,
    `SELECT ${MEMBER_COLUMNS} ${MEMBER_FROM} WHERE m.organization_id = $1 AND m.user_id = $2`,
    [organizationId, userId],
  );
}

async function memberOrNotFound(ctx: AppContext, organizationId: string, userId: string) {
  const row = await loadMember(ctx.db, organizationId, userId);
  if (!row) throw notFound('Member');
  return presentMember(ctx, row);
}

/**
 * Members of an organization, one page in one query (plus a count query only
 * when the page is past the end). Guests may not list the members.
 */
export async function listMembers(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  filters: MemberFilters,
  page: PageRequest,
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  requireFullMember(m, 'list the members of the organization');
  const params: unknown[] = [organizationId];
  const where = ['m.organization_id = $1'];
  if (filters.role === 'guest') where.push('m.role IS NULL');
  else if (filters.role) {
    params.push(filters.role);
    where.push(`m.role = $${params.length}`);
  }
  if (filters.search) {
    params.push(likePattern(filters.search));
    where.push(`(u.display_name ILIKE $${params.length} OR u.email ILIKE $${params.length})`);
  }
  const sort = filters.sort ?? 'joinedAt';
  // Sorting by last activity only makes sense for members who have been active.
  if (sort === 'lastSeenAt') where.push('m.last_seen_at IS NOT NULL');
  const dir = filters.order === 'asc' ? 'ASC' : 'DESC';
  const from = `${MEMBER_FROM} WHERE ${where.join(' AND ')}`;
  params.push(page.limit, page.offset);
  const rows = await cachedQuery<MemberRow & { total: number }>(
    ctx.db,
    `SELECT ${MEMBER_COLUMNS}, count(*) OVER ()::int AS total ${from}
      ORDER BY ${SORT_COLUMNS[sort]} ${dir}, m.user_id ${dir} LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  const total = rows[0]
    ? Number(rows[0].total)
    : Number((await queryOne<{ n: number }>(ctx.db, `SELECT count(*)::int AS n ${from}`, params.slice(0, -2)))?.n ?? 0);
  return listPage(
    rows.map((r) => presentMember(ctx, r)),
    total,
    page,
  );
}

/**
 * listMembers, serialized and read-cached per organization, filters and page
 * (Member objects carry nothing caller-specific; the caller's right to list is
 * checked on every call). Any write drops the cached pages.
 */
export async function listMembersJson(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  filters: MemberFilters,
  page: PageRequest,
): Promise<string> {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  requireFullMember(m, 'list the members of the organization');
  const key = `members-json:${organizationId}:${JSON.stringify([filters.order, filters.role, filters.search, filters.sort, page.offset, page.limit])}`;
  return cachedRead(ctx.db, key, async () => JSON.stringify(await listMembers(ctx, p, organizationId, filters, page)));
}

/** One member. Full members see everyone; a guest sees only themself. */
export async function getMember(ctx: AppContext, p: Principal, organizationId: string, userId: string) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  if (userId !== p.userId) requireFullMember(m, 'see other members of the organization');
  return memberOrNotFound(ctx, organizationId, userId);
}

/** Changes a member's role (null = guest). Admins only; the last admin cannot be demoted. */
export async function updateMember(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  userId: string,
  body: { role?: RoleOrNone },
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  requireOrgRole(m, 'admin', 'change the role of members');
  const role = body.role;
  if (role !== undefined) {
    await ctx.db.transaction(async (tx) => {
      if (role !== 'admin') await assertKeepsAnAdmin(tx, organizationId, userId, 'change the role');
      const updated = await tx.query(
        'UPDATE members SET role = $3 WHERE organization_id = $1 AND user_id = $2 RETURNING user_id',
        [organizationId, userId, role],
      );
      if (updated.length === 0) throw notFound('Member');
    });
  }
  return memberOrNotFound(ctx, organizationId, userId);
}

/**
 * Removes a member (admins, or a member leaving). Their team memberships and
 * direct grants on this organization's content go with them, so rejoining
 * later starts from a clean slate. Removing a non-member is a no-op.
 */
export async function removeMember(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  userId: string,
): Promise<void> {
  const m = await membershipForDelete(ctx.db, organizationId, p.userId);
  if (!m) return;
  if (userId !== p.userId) requireOrgRole(m, 'admin', 'remove other members');
  await ctx.db.transaction(async (tx) => {
    await assertKeepsAnAdmin(tx, organizationId, userId, 'remove this member');
    const removed = await tx.query(
      'DELETE FROM members WHERE organization_id = $1 AND user_id = $2 RETURNING user_id',
      [organizationId, userId],
    );
    if (removed.length === 0) return;
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
  });
}

/** Records that the caller is active in the organization now. */
export async function ping(ctx: AppContext, p: Principal, organizationId: string): Promise<Record<string, never>> {
  await requireOrgMember(ctx.db, organizationId, p.userId);
  await ctx.db.query('UPDATE members SET last_seen_at = $3 WHERE organization_id = $1 AND user_id = $2', [
    organizationId,
    p.userId,
    ctx.clock.now(),
  ]);
  return {};
}

/** Marks a member as an SSO member (they may sign in through the organization's SSO). Admins only. */
export async function setSsoMember(ctx: AppContext, p: Principal, organizationId: string, userId: string) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  requireOrgRole(m, 'admin', 'set SSO members');
  const updated = await ctx.db.query(
    'UPDATE members SET sso = true WHERE organization_id = $1 AND user_id = $2 RETURNING user_id',
    [organizationId, userId],
  );
  if (updated.length === 0) throw notFound('Member');
  return memberOrNotFound(ctx, organizationId, userId);
}
