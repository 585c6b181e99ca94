import { decideChangeRequest, type ChangeRequestAction, type ChangeRequestResource } from './change-request';
import {
  decideCollection,
  decideSpace,
  type CollectionAction,
  type CollectionResource,
  type SpaceAction,
  type SpaceResource,
} from './content';
import type { Decision } from './decision';
import {
  decideDiscussion,
  decidePost,
  type DiscussionAction,
  type DiscussionResource,
  type PostAction,
  type PostResource,
} from './discussion';
import { decideOrganization, type OrganizationAction, type OrganizationResource } from './organization';
import { decideSite, type SiteAction, type SiteResource } from './site';
import type { Actor, Subject } from './subject';
import { decideTeam, type TeamAction, type TeamResource } from './team';
import type { RoleOrNone } from './roles';

/**
 * The one front door of access rules: `decide(actor, action, resource)` and
 * `can(…)`. REST services, the sync socket's authorization and the
 * presenters' `permissions` objects all end up in the per-resource functions
 * below, so no rule is written twice. Everything here is pure: `access/`
 * loads the facts (through the store) and asks.
 */

export type Resource =
  | OrganizationResource
  | SpaceResource
  | CollectionResource
  | ChangeRequestResource
  | DiscussionResource
  | PostResource
  | SiteResource
  | TeamResource;

/** The actions each kind of resource knows. */
export interface ActionsOf {
  organization: OrganizationAction;
  space: SpaceAction;
  collection: CollectionAction;
  'change-request': ChangeRequestAction;
  discussion: DiscussionAction;
  post: PostAction;
  site: SiteAction;
  team: TeamAction;
}

/** The space whose roles apply to a content resource. */
function spaceOf(resource: ChangeRequestResource | DiscussionResource | PostResource): SpaceResource {
  switch (resource.type) {
    case 'change-request':
      return resource.space;
    case 'discussion':
      return resource.owner.type === 'space' ? resource.owner : resource.owner.space;
    case 'post':
      return spaceOf(resource.discussion);
  }
}

/** The actor's role on a resource: their member role for organization-wide things, their content role otherwise. */
export function roleOn(actor: Actor, resource: Resource): RoleOrNone | undefined {
  switch (resource.type) {
    case 'organization':
    case 'site':
    case 'team':
      return actor.membership.role;
    case 'space':
    case 'collection':
      return actor.access.roleOf(resource.node);
    default:
      return actor.access.roleOf(spaceOf(resource).node);
  }
}

/** The actor as one resource's rules see them. */
export function subjectOn(actor: Actor, resource: Resource): Subject {
  return { userId: actor.userId, role: roleOn(actor, resource) };
}

/** May `actor` do `action` to `resource`? With the reason when not. */
export function decide<R extends Resource>(actor: Actor, action: ActionsOf[R['type']], resource: R): Decision {
  const subject = subjectOn(actor, resource);
  const r = resource as Resource;
  switch (r.type) {
    case 'organization':
      return decideOrganization(subject, action as OrganizationAction, r);
    case 'space':
      return decideSpace(subject, action as SpaceAction, r);
    case 'collection':
      return decideCollection(subject, action as CollectionAction, r);
    case 'change-request':
      return decideChangeRequest(subject, action as ChangeRequestAction, r);
    case 'discussion':
      return decideDiscussion(subject, action as DiscussionAction, r);
    case 'post':
      return decidePost(subject, action as PostAction, r);
    case 'site':
      return decideSite(subject, action as SiteAction, r);
    case 'team':
      return decideTeam(subject, action as TeamAction, r);
  }
}

/** Whether `actor` may do `action` to `resource`. */
export function can<R extends Resource>(actor: Actor, action: ActionsOf[R['type']], resource: R): boolean {
  return decide(actor, action, resource).allowed;
}

export type { Actor, Subject } from './subject';
export type { Decision, Denial } from './decision';
