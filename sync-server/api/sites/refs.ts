import { slugify, uniqueSlug } from '../../../shared/markdown';
import type { AppContext } from '../../context';
import { badRequest } from '../../http/errors';
import { parseCondition, ConditionError } from '../../published-site/conditions';
import { loadSpace } from '../spaces/service';
import { spaceNode, type SpaceRow } from '../spaces/present';
import type { SiteAccess } from './access';

/**
 * Checks on what site writes refer to: spaces to publish, paths on the
 * site, and visitor conditions. All failures are 400s with a clear message.
 */

/** A space the caller may publish on this site: same organization, not deleted, visible to them. */
export async function requirePublishableSpace(ctx: AppContext, access: SiteAccess, spaceId: string): Promise<SpaceRow> {
  const space = await loadSpace(ctx, spaceId);
  if (
    !space ||
    space.organization_id !== access.site.organization_id ||
    space.deleted_at ||
    !access.index.roleOf(spaceNode(space))
  ) {
    throw badRequest(`Invalid space: unknown space "${spaceId}"`);
  }
  return space;
}

/** A path segment derived from a title, unique among `taken`. */
export function pathFromTitle(title: string, fallback: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  return uniqueSlug(slugify(title) || fallback, (p) => used.has(p));
}

/** 400 when `path` is already used by a sibling (paths address items on the published site). */
export function requireFreePath(path: string, taken: Iterable<string>, what: string): void {
  for (const t of taken) if (t === path) throw badRequest(`Invalid path: another ${what} already uses "${path}"`);
}

/**
 * A condition as stored: null removes it (so does ''), a string must parse
 * as a visitor condition (400 with the parser's message otherwise).
 */
export function checkedCondition(condition: string | null): string | null {
  if (condition === null || condition.trim() === '') return null;
  try {
    parseCondition(condition);
  } catch (err) {
    if (err instanceof ConditionError)
      throw badRequest(`Invalid condition: ${err.message.replace(/^Invalid condition: /, '')}`);
    throw err;
  }
  return condition;
}
