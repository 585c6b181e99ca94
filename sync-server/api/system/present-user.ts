import type { AppContext } from '../../context';

export interface UserRow {
  id: string;
  display_name: string;
  email: string | null;
  photo_url: string | null;
}

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
