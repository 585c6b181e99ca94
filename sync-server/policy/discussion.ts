import { decideChangeRequest, type ChangeRequestResource } from './change-request';
import { decideSpace, type SpaceResource } from './content';
import { deny, firstDenial, forbidden, type Decision } from './decision';
import { atLeast } from './roles';
import type { Subject } from './subject';

/** The comments of a space or of a change request. Roles are the space's. */
export interface DiscussionResource {
  type: 'discussion';
  owner: SpaceResource | ChangeRequestResource;
}

/** One comment or reply of a discussion. */
export interface PostResource {
  type: 'post';
  discussion: DiscussionResource;
  authorId: string;
}

export type DiscussionAction =
  | 'view'
  /** Any change to the discussion: needs a live space (what role each change needs is decided per action). */
  | 'change'
  /** Post, reply, react, resolve (REST). */
  | 'comment'
  /** A raw CRDT write over the sync socket: never (comments carry authors and permissions such a write would bypass). */
  | 'write-document';

export type PostAction = 'view' | 'edit' | 'delete';

const spaceOf = (d: DiscussionResource) => (d.owner.type === 'space' ? d.owner : d.owner.space);

/** May `subject` (with their role on the space) do `action` in the discussion? */
export function decideDiscussion(subject: Subject, action: DiscussionAction, discussion: DiscussionResource): Decision {
  const visible =
    discussion.owner.type === 'space'
      ? decideSpace(subject, 'view', discussion.owner)
      : decideChangeRequest(subject, 'view', discussion.owner);
  switch (action) {
    case 'view':
      return visible;
    case 'change':
      return firstDenial(
        visible,
        spaceOf(discussion).deleted
          ? deny({ reason: 'deleted', message: 'This space is deleted; restore it first' })
          : undefined,
      );
    case 'comment':
      return firstDenial(visible, decideSpace(subject, 'comment', spaceOf(discussion)));
    case 'write-document':
      return firstDenial(
        visible,
        deny({ reason: 'server-only', message: 'read-only: discussions are written through the API' }),
      );
  }
}

/**
 * May `subject` do `action` to one post? Posting needs `comment`; the body
 * belongs to its author; admins may delete anything (moderation). Authors
 * who lost `comment` keep nothing but view.
 */
export function decidePost(subject: Subject, action: PostAction, post: PostResource): Decision {
  const visible = decideDiscussion(subject, 'view', post.discussion);
  if (action === 'view') return visible;
  const active = spaceOf(post.discussion).deleted
    ? deny({ reason: 'deleted', message: 'This space is deleted; restore it first' })
    : undefined;
  const canComment = decideDiscussion(subject, 'comment', post.discussion);
  const own = subject.userId !== undefined && subject.userId === post.authorId;
  if (action === 'edit')
    return firstDenial(
      visible,
      active,
      canComment,
      own ? undefined : forbidden('Only the author of a comment can edit it'),
    );
  const moderator = atLeast(subject.role ?? null, 'admin');
  return firstDenial(
    visible,
    active,
    (own && canComment.allowed) || moderator
      ? undefined
      : forbidden('Only the author of a comment or an admin can delete it'),
  );
}

/** The `permissions` object of a comment or reply. */
export function postPermissions(subject: Subject, post: PostResource) {
  return {
    view: decidePost(subject, 'view', post).allowed,
    edit: decidePost(subject, 'edit', post).allowed,
    reply: decideDiscussion(subject, 'comment', post.discussion).allowed,
    delete: decidePost(subject, 'delete', post).allowed,
  };
}
