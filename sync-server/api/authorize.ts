import type { Principal } from '../identity/principal';
import { ApiError, notFound } from '../http/errors';
import { decide, type ActionsOf, type Actor, type Decision, type Resource } from '../policy';
import type { OrganizationAction } from '../policy/organization';
import { loadActor } from '../access/actor';
import type { Queryable } from '../store/db';

/**
 * How REST says a policy refusal: 404 for what the caller may not even know
 * exists, 400 for what its state forbids (trashed, merged), 403 for a missing
 * role or a locked space. The decision itself is policy's (`policy/`); this
 * file only translates it, once for every route.
 */
export function apiErrorOf(decision: Decision & { allowed: false }): ApiError {
  switch (decision.reason) {
    case 'not-found':
      return notFound(decision.what);
    case 'deleted':
    case 'closed':
      return new ApiError(400, decision.message);
    case 'forbidden':
    case 'locked':
    case 'server-only':
      return new ApiError(403, decision.message);
  }
}

/** Throws the API error for `decision` unless it allows. */
export function enforce(decision: Decision): void {
  if (!decision.allowed) throw apiErrorOf(decision);
}

/** Asks policy and throws the API error of a refusal. */
export function authorize<R extends Resource>(actor: Actor, action: ActionsOf[R['type']], resource: R): void {
  enforce(decide(actor, action, resource));
}

/** The caller in an organization; 404 when they are not a member of it (or it does not exist). */
export async function requireOrgActor(db: Queryable, p: Principal, organizationId: string): Promise<Actor> {
  const actor = await loadActor(db, organizationId, p.userId);
  if (actor.membership.role === undefined) throw notFound('Organization');
  return actor;
}

/** The caller in an organization when policy lets them do `action` there (404 non-members, 403 otherwise). */
export async function requireOrgPermission(
  db: Queryable,
  p: Principal,
  organizationId: string,
  action: OrganizationAction,
): Promise<Actor> {
  const actor = await requireOrgActor(db, p, organizationId);
  authorize(actor, action, organization(organizationId));
  return actor;
}

/**
 * For DELETE routes: the caller in the organization, or undefined when they do
 * not belong to it (or it does not exist). DELETE of what the caller cannot see
 * answers 204 like DELETE of what does not exist; the route then does nothing.
 */
export async function actorForDelete(db: Queryable, p: Principal, organizationId: string): Promise<Actor | undefined> {
  const actor = await loadActor(db, organizationId, p.userId);
  return actor.membership.role === undefined ? undefined : actor;
}

/** An organization as a policy resource. */
export const organization = (organizationId: string) => ({ type: 'organization' as const, organizationId });
