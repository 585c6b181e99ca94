import type { AppContext } from '../../context';
import { badRequest } from '../../http/errors';
import type { Actor } from '../../policy';
import { ConditionError } from '../../sites/conditions';
import { isPathTaken, isPublishableSpace, storedCondition } from '../../sites/refs';
import { loadSpaceRow, type SpaceRow } from '../../store/spaces';

/**
 * The REST face of what site writes refer to (rules in `sites/refs.ts`):
 * spaces to publish, paths on the site, and visitor conditions. Every
 * refusal is a 400 with a clear message.
 */

/** A space `actor` may publish on a site of `organizationId` (400 otherwise). */
export async function requirePublishableSpace(
  ctx: AppContext,
  actor: Actor,
  organizationId: string,
  spaceId: string,
): Promise<SpaceRow> {
  const space = await loadSpaceRow(ctx.db, spaceId);
  if (!space || !isPublishableSpace(actor, organizationId, space))
    throw badRequest(`Invalid space: unknown space "${spaceId}"`);
  return space;
}

/** 400 when `path` is already used by a sibling (paths address items on the published site). */
export function requireFreePath(path: string, taken: Iterable<string>, what: string): void {
  if (isPathTaken(path, taken)) throw badRequest(`Invalid path: another ${what} already uses "${path}"`);
}

/** A condition as stored (null and '' remove it); 400 with the parser's message when it does not parse. */
export function checkedCondition(condition: string | null): string | null {
  try {
    return storedCondition(condition);
  } catch (err) {
    if (err instanceof ConditionError)
      throw badRequest(`Invalid condition: ${err.message.replace(/^Invalid condition: /, '')}`);
    throw err;
  }
}
