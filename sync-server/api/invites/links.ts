import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { listPage, type PageRequest } from '../../http/paging';
import { membershipForDelete, requireContentRole, requireOrgMember, requireOrgRole } from '../../policy/guards';
import { isRole, type RoleOrNone } from '../../policy/roles';
import { queryOne, type Queryable } from '../../store/db';
import { collectionObjectFor, requireCollection } from '../collections/service';
import { requireActiveSpace, requireSpace, spaceObjectFor } from '../spaces/service';

/** A `link_invites` row. `role` is the org role, or the level on the space/collection. */
export interface LinkRow {
  id: string;
  organization_id: string;
  role: string | null;
  resource_type: 'space' | 'collection' | null;
  resource_id: string | null;
}

const LINK_COLUMNS = 'id, organization_id, role, resource_type, resource_id';

/** createOrganizationInvite body: an organization role, or a level on a space or collection. */
export type CreateLink =
  { role: RoleOrNone } | { level: RoleOrNone; space: string } | { level: RoleOrNone; collection: string };
/** updateOrganizationInviteById body: `role` for organization links, `level` for content links. */
export type UpdateLink = { role: RoleOrNone } | { level: RoleOrNone };

const roleOf = (value: string | null): RoleOrNone => (isRole(value) ? value : null);

/** A link invite of this organization, or undefined (also for another organization's id). */
export async function findLink(db: Queryable, organizationId: string, inviteId: string): Promise<LinkRow | undefined> {
  return queryOne<LinkRow>(db, `SELECT ${LINK_COLUMNS} FROM link_invites WHERE id = $1 AND organization_id = $2`, [
    inviteId,
    organizationId,
  ]);
}

async function invitesLinksEnabled(ctx: AppContext, organizationId: string): Promise<boolean> {
  const org = await queryOne<{ invite_links: boolean }>(
    ctx.db,
    'SELECT invite_links FROM organizations WHERE id = $1',
    [organizationId],
  );
  return org?.invite_links ?? false;
}

/**
 * Who manages a link: organization links belong to the organization's admins;
 * a space or collection link to the admins of that content (which includes
 * the organization admins). Content of another organization is a 404.
 */
async function requireLinkManager(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  target: { type: 'space' | 'collection'; id: string } | null,
  activeOnly = false,
) {
  const m = await requireOrgMember(ctx.db, organizationId, p.userId);
  if (!target) {
    requireOrgRole(m, 'admin', 'manage invite links');
    return;
  }
  const found =
    target.type === 'space'
      ? await (activeOnly ? requireActiveSpace : requireSpace)(ctx, p, target.id)
      : await requireCollection(ctx, p, target.id);
  if (found.row.organization_id !== organizationId) throw notFound(target.type === 'space' ? 'Space' : 'Collection');
  requireContentRole(found.role, 'admin', `manage invite links of this ${target.type}`);
}

function targetOf(link: LinkRow): { type: 'space' | 'collection'; id: string } | null {
  return link.resource_type && link.resource_id ? { type: link.resource_type, id: link.resource_id } : null;
}

/** Row -> API `OrganizationInviteLink` (with the Space/Collection as the caller sees it). */
async function presentLink(ctx: AppContext, p: Principal, link: LinkRow) {
  // "redundant" would say the caller already has what the link grants; the
  // people who see links are their managers, so that is not computed.
  const base = { object: 'invite' as const, id: link.id, redundant: false };
  if (link.resource_type === 'space' && link.resource_id)
    return { ...base, level: roleOf(link.role), space: await spaceObjectFor(ctx, p, link.resource_id) };
  if (link.resource_type === 'collection' && link.resource_id) {
    return { ...base, level: roleOf(link.role), collection: await collectionObjectFor(ctx, p, link.resource_id) };
  }
  return { ...base, role: roleOf(link.role) };
}

/**
 * The organization's invite links (organization links only: GitBook's list
 * schema has no room for space/collection links). Admins only.
 */
export async function listLinks(ctx: AppContext, p: Principal, organizationId: string, page: PageRequest) {
  await requireLinkManager(ctx, p, organizationId, null);
  const rows = await ctx.db.query<LinkRow & { total: number }>(
    `SELECT ${LINK_COLUMNS}, count(*) OVER ()::int AS total FROM link_invites
      WHERE organization_id = $1 AND resource_type IS NULL ORDER BY created_at, id LIMIT $2 OFFSET $3`,
    [organizationId, page.limit, page.offset],
  );
  const total = rows[0]
    ? Number(rows[0].total)
    : Number(
        (
          await queryOne<{ n: number }>(
            ctx.db,
            'SELECT count(*)::int AS n FROM link_invites WHERE organization_id = $1 AND resource_type IS NULL',
            [organizationId],
          )
        )?.n ?? 0,
      );
  return listPage(
    rows.map((r) => ({ object: 'invite' as const, id: r.id, role: roleOf(r.role), redundant: false })),
    total,
    page,
  );
}

/** Creates an invite link to the organization (org admins) or to a space/collection (its admins). */
export async function createLink(ctx: AppContext, p: Principal, organizationId: string, body: CreateLink) {
  const target =
    'space' in body
      ? { type: 'space' as const, id: body.space }
      : 'collection' in body
        ? { type: 'collection' as const, id: body.collection }
        : null;
  await requireLinkManager(ctx, p, organizationId, target, true);
  if (!(await invitesLinksEnabled(ctx, organizationId)))
    throw badRequest('Invite links are disabled in this organization (inviteLinks is false)');
  const role = 'role' in body ? body.role : body.level;
  if (target && role === null) throw badRequest(`An invite link to a ${target.type} needs a level`);
  const id = newId();
  await ctx.db.query(
    'INSERT INTO link_invites (id, organization_id, role, resource_type, resource_id, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [id, organizationId, role, target?.type ?? null, target?.id ?? null, p.userId, ctx.clock.now()],
  );
  return presentLink(ctx, p, {
    id,
    organization_id: organizationId,
    role,
    resource_type: target?.type ?? null,
    resource_id: target?.id ?? null,
  });
}

async function requireManagedLink(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  inviteId: string,
): Promise<LinkRow> {
  await requireOrgMember(ctx.db, organizationId, p.userId);
  const link = await findLink(ctx.db, organizationId, inviteId);
  if (!link) throw notFound('Invite link');
  await requireLinkManager(ctx, p, organizationId, targetOf(link));
  return link;
}

/** One invite link, for its managers. */
export async function getLink(ctx: AppContext, p: Principal, organizationId: string, inviteId: string) {
  return presentLink(ctx, p, await requireManagedLink(ctx, p, organizationId, inviteId));
}

/** Changes the role (organization link) or level (space/collection link) a link gives. */
export async function updateLink(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  inviteId: string,
  body: UpdateLink,
) {
  const link = await requireManagedLink(ctx, p, organizationId, inviteId);
  const target = targetOf(link);
  if (!target && !('role' in body)) throw badRequest('This invite link is to the organization: set its "role"');
  if (target && !('level' in body)) throw badRequest(`This invite link is to a ${target.type}: set its "level"`);
  const role = 'role' in body ? body.role : body.level;
  if (target && role === null) throw badRequest(`An invite link to a ${target.type} needs a level`);
  await ctx.db.query('UPDATE link_invites SET role = $2 WHERE id = $1', [link.id, role]);
  return presentLink(ctx, p, { ...link, role });
}

/** Deletes a link; 204 also when it does not exist (any more). */
export async function deleteLink(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  inviteId: string,
): Promise<void> {
  const m = await membershipForDelete(ctx.db, organizationId, p.userId);
  const link = m && (await findLink(ctx.db, organizationId, inviteId));
  if (!m || !link) return;
  // Org admins administer all content, and may clean up links whose space or collection is gone.
  if (m.role !== 'admin') await requireLinkManager(ctx, p, organizationId, targetOf(link));
  await ctx.db.query('DELETE FROM link_invites WHERE id = $1', [link.id]);
}
