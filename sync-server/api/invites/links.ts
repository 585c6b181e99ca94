import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { newId } from '../../http/ids';
import { listPage, type PageRequest } from '../../http/paging';
import { can, type Actor } from '../../policy';
import type { RoleOrNone } from '../../policy/roles';
import {
  deleteLinkRow,
  findLinkRow,
  insertLinkRow,
  listOrganizationLinkRows,
  setLinkRole,
  type LinkRow,
} from '../../store/invites';
import { loadOrganizationRow } from '../../store/organizations';
import { actorForDelete, authorize, organization, requireOrgActor } from '../authorize';
import { collectionObjectFor, requireCollection } from '../collections/service';
import { storedRole } from '../members/membership';
import { requireSpace, spaceObjectFor } from '../spaces/service';

/** createOrganizationInvite body: an organization role, or a level on a space or collection. */
export type CreateLink =
  { role: RoleOrNone } | { level: RoleOrNone; space: string } | { level: RoleOrNone; collection: string };
/** updateOrganizationInviteById body: `role` for organization links, `level` for content links. */
export type UpdateLink = { role: RoleOrNone } | { level: RoleOrNone };

/** What a link leads to: a space or collection, or (null) the organization itself. */
type LinkTarget = { type: 'space' | 'collection'; id: string } | null;

function targetOf(link: LinkRow): LinkTarget {
  return link.resource_type && link.resource_id ? { type: link.resource_type, id: link.resource_id } : null;
}

/**
 * Asks policy whether the actor manages links to `target`: organization links
 * are the organization's (`manage-invite-links`); a space or collection link is
 * that content's (its `manage-invite-links`, which organization admins have
 * too). Content of another organization is a 404. `creating` a link to a
 * space needs a live one; links already made to a trashed space stay
 * manageable by its admins (`administer` asks the same role without the
 * live-space condition).
 */
async function requireLinkManager(
  ctx: AppContext,
  p: Principal,
  actor: Actor,
  organizationId: string,
  target: LinkTarget,
  creating = false,
): Promise<void> {
  if (!target) return authorize(actor, 'manage-invite-links', organization(organizationId));
  const found =
    target.type === 'space'
      ? await requireSpace(ctx, p, target.id, creating ? 'manage-invite-links' : 'administer')
      : await requireCollection(ctx, p, target.id, 'manage-invite-links');
  if (found.row.organization_id !== organizationId) throw notFound(target.type === 'space' ? 'Space' : 'Collection');
}

/** An organization link -> API `InviteLinkToOrganization`. */
function presentOrganizationLink(link: LinkRow) {
  // "redundant" would say the caller already has what the link grants; the
  // people who see links are their managers, so that is not computed.
  return { object: 'invite' as const, id: link.id, role: storedRole(link.role), redundant: false };
}

/** Row -> API `OrganizationInviteLink` (with the Space/Collection as the caller sees it). */
async function presentLink(ctx: AppContext, p: Principal, link: LinkRow) {
  const target = targetOf(link);
  if (!target) return presentOrganizationLink(link);
  const base = { object: 'invite' as const, id: link.id, redundant: false, level: storedRole(link.role) };
  return target.type === 'space'
    ? { ...base, space: await spaceObjectFor(ctx, p, target.id) }
    : { ...base, collection: await collectionObjectFor(ctx, p, target.id) };
}

/**
 * The organization's invite links (organization links only: GitBook's list
 * schema has no room for space/collection links), for their managers.
 */
export async function listLinks(ctx: AppContext, p: Principal, organizationId: string, page: PageRequest) {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  await requireLinkManager(ctx, p, actor, organizationId, null);
  const { rows, total } = await listOrganizationLinkRows(ctx.db, organizationId, page);
  return listPage(rows.map(presentOrganizationLink), total, page);
}

/** Creates an invite link to the organization or to a space/collection, for the managers of its target. */
export async function createLink(ctx: AppContext, p: Principal, organizationId: string, body: CreateLink) {
  const target: LinkTarget =
    'space' in body
      ? { type: 'space', id: body.space }
      : 'collection' in body
        ? { type: 'collection', id: body.collection }
        : null;
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  await requireLinkManager(ctx, p, actor, organizationId, target, true);
  if (!(await loadOrganizationRow(ctx.db, organizationId))?.invite_links)
    throw badRequest('Invite links are disabled in this organization (inviteLinks is false)');
  const role = 'role' in body ? body.role : body.level;
  if (target && role === null) throw badRequest(`An invite link to a ${target.type} needs a level`);
  const link: LinkRow = {
    id: newId(),
    organization_id: organizationId,
    role,
    resource_type: target?.type ?? null,
    resource_id: target?.id ?? null,
  };
  await insertLinkRow(ctx.db, { ...link, createdBy: p.userId, createdAt: ctx.clock.now() });
  return presentLink(ctx, p, link);
}

/** A link of the organization that the caller manages; 404 when there is none, 403 when they do not manage it. */
async function requireManagedLink(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  inviteId: string,
): Promise<LinkRow> {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  const link = await findLinkRow(ctx.db, organizationId, inviteId);
  if (!link) throw notFound('Invite link');
  await requireLinkManager(ctx, p, actor, organizationId, targetOf(link));
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
  await setLinkRole(ctx.db, link.id, role);
  return presentLink(ctx, p, { ...link, role });
}

/** Deletes a link; 204 also when it does not exist (any more) or the caller is not in the organization. */
export async function deleteLink(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  inviteId: string,
): Promise<void> {
  const actor = await actorForDelete(ctx.db, p, organizationId);
  const link = actor && (await findLinkRow(ctx.db, organizationId, inviteId));
  if (!actor || !link) return;
  // Organization link managers (its admins) manage every link, also those whose space or collection is gone.
  if (!can(actor, 'manage-invite-links', organization(organizationId)))
    await requireLinkManager(ctx, p, actor, organizationId, targetOf(link));
  await deleteLinkRow(ctx.db, link.id);
}
