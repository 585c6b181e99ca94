/**
 * The app's location, kept in the URL hash so it works the same from
 * file:// (Electron), under /app/ on the server and from any static host, and
 * so a reload reopens the same space, change request and page.
 *
 *   #/                                   space picker
 *   #/settings                           theme and accounts
 *   #/sign-in                            add an account (also when one is signed in)
 *   #/spaces/<spaceId>[/change-requests/<crId>][/pages/<pageId>]
 */

/** Where the app is. */
export type Route =
  | { view: 'picker' }
  | { view: 'settings' }
  | { view: 'sign-in' }
  | { view: 'space'; spaceId: string; changeRequestId?: string; pageId?: string };

const ID = '[A-Za-z0-9_-]{1,64}';
const SPACE = new RegExp(`^#?/spaces/(${ID})(?:/change-requests/(${ID}))?(?:/pages/(${ID}))?/?$`);

/** Parses a location hash (unknown hashes go to the picker). */
export function parseRoute(hash: string): Route {
  if (/^#?\/settings\/?$/.test(hash)) return { view: 'settings' };
  if (/^#?\/sign-in\/?$/.test(hash)) return { view: 'sign-in' };
  const m = SPACE.exec(hash);
  if (!m) return { view: 'picker' };
  return {
    view: 'space',
    spaceId: m[1]!,
    ...(m[2] ? { changeRequestId: m[2] } : {}),
    ...(m[3] ? { pageId: m[3] } : {}),
  };
}

/** The hash of a route. */
export function formatRoute(route: Route): string {
  if (route.view !== 'space') return route.view === 'picker' ? '#/' : `#/${route.view}`;
  let hash = `#/spaces/${route.spaceId}`;
  if (route.changeRequestId) hash += `/change-requests/${route.changeRequestId}`;
  if (route.pageId) hash += `/pages/${route.pageId}`;
  return hash;
}

/** Whether two routes open the same document (they may differ by page only). */
export function sameDocument(a: Route, b: Route): boolean {
  if (a.view !== 'space' || b.view !== 'space') return false;
  return a.spaceId === b.spaceId && a.changeRequestId === b.changeRequestId;
}
