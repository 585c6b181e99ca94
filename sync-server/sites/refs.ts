import { slugify, uniqueSlug } from '../../shared/markdown/slug';
import { spaceResource } from '../access/resources';
import { can, type Actor } from '../policy';
import type { SpaceRow } from '../store/spaces';
import { parseCondition } from './conditions';

/**
 * What the items of a site may refer to: the spaces they publish, the path
 * segments that address them on the published site, and visitor conditions.
 * The REST API turns a refusal into a 400.
 */

/**
 * Whether `actor` may publish `space` on a site of `organizationId`: a space
 * of that organization, not in the trash, that they can see (publishing it
 * must not reveal a space they could not open).
 */
export function isPublishableSpace(actor: Actor, organizationId: string, space: SpaceRow): boolean {
  return space.organization_id === organizationId && !space.deleted_at && can(actor, 'view', spaceResource(space));
}

/** A path segment derived from a title, unique among `taken`. */
export function pathFromTitle(title: string, fallback: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  return uniqueSlug(slugify(title) || fallback, (p) => used.has(p));
}

/** Whether `path` is already used by one of `taken` (siblings must have distinct paths to be addressable). */
export function isPathTaken(path: string, taken: Iterable<string>): boolean {
  for (const t of taken) if (t === path) return true;
  return false;
}

/**
 * A condition as a site stores it: null or blank removes it, anything else
 * must parse (ConditionError otherwise), so a stored condition always parses.
 */
export function storedCondition(condition: string | null): string | null {
  if (condition === null || condition.trim() === '') return null;
  parseCondition(condition);
  return condition;
}
