import type { AppContext } from '../../context';
import type { UserRow as StoredUserRow } from '../../store/users';

/** The columns of a user that its API object shows (any query joining `users` can supply them). */
export type UserRow = Pick<StoredUserRow, 'id' | 'display_name' | 'email' | 'photo_url'>;

/** Row -> API `User`. Emails are shown: every caller that sees a user shares an organization with them. */
export function presentUser(ctx: AppContext, u: UserRow) {
  return {
    object: 'user' as const,
    id: u.id,
    displayName: u.display_name,
    ...(u.email ? { email: u.email } : {}),
    ...(u.photo_url ? { photoURL: u.photo_url } : {}),
    urls: { location: ctx.urls.api(`/users/${u.id}`) },
  };
}
