import type { ContentNode } from './access-index';
import { ALLOW, deny, forbidden, type Decision } from './decision';
import { atLeast, type Role } from './roles';
import type { Subject } from './subject';

/** A space as policy sees it. */
export interface SpaceResource {
  type: 'space';
  node: ContentNode;
  deleted: boolean;
  /** Edit mode `locked`: content changes are refused whatever the role. */
  locked: boolean;
}

/** A collection as policy sees it. */
export interface CollectionResource {
  type: 'collection';
  node: ContentNode;
}

/** One rule: the role it needs, how to say it, and the states it refuses. */
interface ContentRule {
  role: Role;
  phrase: string;
  /** Refused while the space is in the trash (400: restore it first). */
  active?: boolean;
  /** Refused while the space is locked. */
  unlocked?: boolean;
}

const SPACE_RULES = {
  view: { role: 'read', phrase: 'see this space' },
  administer: { role: 'admin', phrase: 'administer this space' },
  'edit-content': { role: 'edit', phrase: 'edit the content of this space', active: true, unlocked: true },
  comment: { role: 'comment', phrase: 'comment here', active: true },
  review: { role: 'review', phrase: 'review change requests' },
  update: { role: 'admin', phrase: 'change this space', active: true },
  delete: { role: 'admin', phrase: 'delete this space' },
  restore: { role: 'admin', phrase: 'restore this space' },
  move: { role: 'admin', phrase: 'move this space', active: true },
  transfer: { role: 'admin', phrase: 'transfer this space', active: true },
  duplicate: { role: 'read', phrase: 'duplicate this space', active: true },
  'manage-invite-links': { role: 'admin', phrase: 'manage invite links of this space', active: true },
  'manage-permissions': { role: 'admin', phrase: 'manage who can access this space' },
  'create-change-request': { role: 'edit', phrase: 'create a change request', active: true },
  'merge-change-request': { role: 'review', phrase: 'merge a change request', active: true, unlocked: true },
  // Git sync writes the content (import) and a repository with stored credentials (export): the space's admins.
  'git-sync': { role: 'admin', phrase: 'sync this space with Git', active: true },
} satisfies Record<string, ContentRule>;

export type SpaceAction = keyof typeof SPACE_RULES;

const COLLECTION_RULES = {
  view: { role: 'read', phrase: 'see this collection' },
  'create-in': { role: 'create', phrase: 'create content in this collection' },
  update: { role: 'admin', phrase: 'change this collection' },
  delete: { role: 'admin', phrase: 'delete this collection' },
  move: { role: 'admin', phrase: 'move this collection' },
  transfer: { role: 'admin', phrase: 'transfer this collection' },
  'manage-invite-links': { role: 'admin', phrase: 'manage invite links of this collection' },
  'manage-permissions': { role: 'admin', phrase: 'manage who can access this collection' },
} satisfies Record<string, ContentRule>;

export type CollectionAction = keyof typeof COLLECTION_RULES;

/** Applies a rule: not visible (404), trashed (400), role (403), locked (403), in that order. */
function apply(
  rule: ContentRule,
  subject: Subject,
  what: string,
  state: { deleted: boolean; locked: boolean },
): Decision {
  const role = subject.role ?? null;
  if (!role) return deny({ reason: 'not-found', what });
  if (rule.active && state.deleted)
    return deny({ reason: 'deleted', message: 'This space is deleted; restore it first' });
  if (!atLeast(role, rule.role)) return forbidden(`You need the "${rule.role}" role to ${rule.phrase}`);
  if (rule.unlocked && state.locked)
    return deny({ reason: 'locked', message: `This space is locked; unlock it to ${rule.phrase}` });
  return ALLOW;
}

/** May `subject` (with their role on the space) do `action` to `space`? */
export function decideSpace(subject: Subject, action: SpaceAction, space: SpaceResource): Decision {
  return apply(SPACE_RULES[action], subject, 'Space', space);
}

/** May `subject` (with their role on the collection) do `action` to `collection`? */
export function decideCollection(
  subject: Subject,
  action: CollectionAction,
  _collection: CollectionResource,
): Decision {
  return apply(COLLECTION_RULES[action], subject, 'Collection', { deleted: false, locked: false });
}

/** The `permissions` object of a Space, from the same decisions the routes and the socket take. */
export function spacePermissions(subject: Subject, space: SpaceResource) {
  const can = (action: SpaceAction) => decideSpace(subject, action, space).allowed;
  return {
    view: can('view'),
    access: can('view'),
    admin: can('administer'),
    viewInviteLinks: can('administer'),
    edit: can('edit-content'),
    triggerGitSync: can('git-sync'),
    comment: can('comment'),
    merge: can('merge-change-request'),
    review: can('review'),
    installIntegration: can('administer'),
  };
}

/** The `permissions` object of a Collection. */
export function collectionPermissions(subject: Subject, collection: CollectionResource) {
  const can = (action: CollectionAction) => decideCollection(subject, action, collection).allowed;
  return {
    view: can('view'),
    admin: can('update'),
    viewInviteLinks: can('manage-invite-links'),
    create: can('create-in'),
  };
}
