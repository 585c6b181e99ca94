import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest, forbidden, notFound } from '../../http/errors';
import type { AccessIndex, ContentNode } from '../../policy/access';
import { loadMembership } from '../../policy/access';
import { atLeast } from '../../policy/roles';
import { queryOne } from '../../store/db';
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
  index: AccessIndex,
  node: ContentNode,
  body: MoveRequest,
): Promise<MoveTarget> {
  const parentId = body.parent === undefined ? node.parentId : body.parent;
  if (parentId) {
    const parent = await queryOne<{
      id: string;
      organization_id: string;
      parent_id: string | null;
      default_level: string | null;
    }>(ctx.db, 'SELECT id, organization_id, parent_id, default_level FROM collections WHERE id = $1', [parentId]);
    const parentNode: ContentNode | undefined = parent && {
      type: 'collection',
      id: parent.id,
      organizationId: parent.organization_id,
      parentId: parent.parent_id,
      defaultLevel: parent.default_level,
    };
    if (!parentNode || parentNode.organizationId !== node.organizationId || !index.roleOf(parentNode)) {
      throw badRequest(`Invalid parent: unknown collection "${parentId}"`);
    }
    if (node.type === 'collection' && (await collectionSubtree(ctx.db, node.id)).includes(parentId)) {
      throw badRequest('Invalid parent: a collection cannot be moved into itself or one of its nested collections');
    }
    if (!atLeast(index.roleOf(parentNode), 'create'))
      throw forbidden('You need the "create" role on the target collection');
  } else if (!atLeast(index.membership.role ?? null, 'create')) {
    throw forbidden('You need the "create" role in the organization to move content to its top level');
  }
  const siblings = await siblingsOf(ctx.db, node.organizationId, parentId);
  if (parentId === node.parentId && isSamePlace(siblings, body.position, node.id)) {
    throw badRequest('The move would not change anything');
  }
  return { parentId, position: keyForPosition(siblings, body.position, node.id) };
}

/**
 * Checks a transfer to another organization and returns the top-level
 * position there. The caller must belong to the target (404 otherwise, it
 * may not even exist for them) with at least "create" (403).
 */
export async function resolveTransfer(
  ctx: AppContext,
  p: Principal,
  node: ContentNode,
  targetOrganizationId: string,
): Promise<string> {
  if (targetOrganizationId === node.organizationId)
    throw badRequest('The transfer would not change anything: it is already in that organization');
  const target = await loadMembership(ctx.db, targetOrganizationId, p.userId);
  if (target.role === undefined) throw notFound('Target organization');
  if (!atLeast(target.role, 'create')) throw forbidden('You need the "create" role in the target organization');
  return keyAtEnd(await siblingsOf(ctx.db, targetOrganizationId, null));
}
