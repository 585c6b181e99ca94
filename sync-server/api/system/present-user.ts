import type { AppContext } from '../../context';
import { can, type Actor } from '../../policy';
import type { UserRow as StoredUserRow } from '../../store/users';
import { organization } from '../authorize';

/** The columns of a user that its API object shows (any query joining `users` can supply them). */
export type UserRow = Pick<StoredUserRow, 'id' | 'display_name' | 'email' | 'photo_url'>;

/**
 * Who is looking at User objects, as far as their details go. Every User an
 * API object embeds (authors, reviewers, members…) is presented for a viewer,
 * so the one rule below decides everywhere: a guest, who may not see the
 * organization's members, must not learn their emails from a comment's
 * `postedBy` either.
 */
export interface UserViewer {
  userId: string;
  /** Policy's `view-members` in the organization whose objects are shown. */
  seesMemberDetails: boolean;
}

/** The viewer an actor is in their organization. */
export function viewerOf(actor: Actor): UserViewer {
  return {
    userId: actor.userId,
    seesMemberDetails: can(actor, 'view-members', organization(actor.membership.organizationId)),
  };
}

/** A caller looking at themself only (`GET /user`). */
export function selfViewer(userId: string): UserViewer {
  return { userId, seesMemberDetails: false };
}

/** Row -> API `User`. The email is shown to viewers who may see members' details, and to the user themself. */
export function presentUser(ctx: AppContext, viewer: UserViewer, u: UserRow) {
  const showEmail = viewer.seesMemberDetails || viewer.userId === u.id;
  return {
    object: 'user' as const,
    id: u.id,
    displayName: u.display_name,
    ...(u.email && showEmail ? { email: u.email } : {}),
    ...(u.photo_url ? { photoURL: u.photo_url } : {}),
    urls: { location: ctx.urls.api(`/users/${u.id}`) },
  };
}
