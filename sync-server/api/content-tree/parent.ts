import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { decide } from '../../policy';
import { collectionResource } from '../../access/resources';
import { loadCollectionRow } from '../../store/collections';
import { authorize, enforce, organization, requireOrgActor } from '../authorize';

/**
 * Where a new space or collection may go: the top level (the organization's
 * "create") or a collection of the same organization ("create" there).
 * 404 for a non-member, 400 for an unknown parent, 404 for a parent the
 * caller cannot see, 403 without the role.
 */
export async function requireCreatableParent(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  parentId: string | null,
): Promise<void> {
  const actor = await requireOrgActor(ctx.db, p, organizationId);
  if (!parentId) return authorize(actor, 'create-content', organization(organizationId));
  const parent = await loadCollectionRow(ctx.db, parentId);
  if (!parent || parent.organization_id !== organizationId)
    throw badRequest(`Invalid parent: unknown collection "${parentId}"`);
  const decision = decide(actor, 'create-in', collectionResource(parent));
  if (!decision.allowed && decision.reason === 'not-found') throw notFound('Parent collection');
  enforce(decision);
}
