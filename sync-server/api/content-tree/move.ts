import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { decide, type Actor } from '../../policy';
import type { ContentNode } from '../../policy/access-index';
import { loadActor } from '../../access/actor';
import { collectionResource } from '../../access/resources';
import { loadCollectionRow } from '../../store/collections';
import { authorize, enforce, organization } from '../authorize';
import { isSamePlace, keyAtEnd, keyForPosition, siblingsOf, type Position } from './position';
import { collectionSubtree } from './subtree';

export interface MoveRequest {
  /** undefined keeps the current parent; null moves to the top level. */
  parent?: string | null;
  position?: Position;
}

export interface MoveTarget {
  parentId: string | null;
  position: string;
}

/**
 * Validates a move of a space or collection inside its organization and
 * returns where it lands. Errors follow the spec: an unknown or invisible
 * parent collection or a position naming a non-sibling is a 400, a move
 * into itself (collections) is a 400, a move that changes nothing is a 400,
 * and lacking "create" where it lands is a 403.
 */
export async function resolveMove(
  ctx: AppContext,
  actor: Actor,
  node: ContentNode,
  body: MoveRequest,
): Promise<MoveTarget> {
  authorize(actor, 'organize-content', organization(node.organizationId));
  const parentId = body.parent === undefined ? node.parentId : body.parent;
  if (parentId) {
    const parent = await loadCollectionRow(ctx.db, parentId);
    const decision = parent && decide(actor, 'create-in', collectionResource(parent));
    // A parent the caller cannot see is reported like one that does not exist.
    if (
      !parent ||
      parent.organization_id !== node.organizationId ||
      !decision ||
      (!decision.allowed && decision.reason === 'not-found')
    )
      throw badRequest(`Invalid parent: unknown collection "${parentId}"`);
    if (node.type === 'collection' && (await collectionSubtree(ctx.db, node.id)).includes(parentId)) {
      throw badRequest('Invalid parent: a collection cannot be moved into itself or one of its nested collections');
    }
    enforce(decision);
  } else {
    authorize(actor, 'create-content', organization(node.organizationId));
  }
  const siblings = await siblingsOf(ctx.db, node.organizationId, parentId);
  if (parentId === node.parentId && isSamePlace(siblings, body.position, node.id)) {
    throw badRequest('The move would not change anything');
  }
  return { parentId, position: keyForPosition(siblings, body.position, node.id) };
}

/**
 * Checks a transfer to another organization and returns the top-level
 * position there. Both sides must agree: the caller administers the source
 * organization (403; a guest holding admin on one space must not walk off
 * with it), and belongs to the target (404 otherwise, it may not even exist
 * for them) with at least "create" (403).
 */
export async function resolveTransfer(
  ctx: AppContext,
  p: Principal,
  node: ContentNode,
  targetOrganizationId: string,
): Promise<string> {
  if (targetOrganizationId === node.organizationId)
    throw badRequest('The transfer would not change anything: it is already in that organization');
  // Both sides: the source organization lets the content go, the target takes it in.
  authorize(
    await loadActor(ctx.db, node.organizationId, p.userId),
    'transfer-content-out',
    organization(node.organizationId),
  );
  const target = await loadActor(ctx.db, targetOrganizationId, p.userId);
  if (target.membership.role === undefined) throw notFound('Target organization');
  authorize(target, 'create-content', organization(targetOrganizationId));
  return keyAtEnd(await siblingsOf(ctx.db, targetOrganizationId, null));
}
