import { matchScreen, pathOf, screenOf } from './screens/registry';

/**
 * The app's location. One path grammar, written two ways:
 *
 *  - history form under /app/ in the web app (`/app/s/<spaceId>`), so the links the API hands out
 *    (`urls.app`) open the right screen and a reload keeps it (the server answers index.html for
 *    every /app/ path that is not a file);
 *  - hash form (`#/s/<spaceId>`) in the desktop app (a custom-scheme origin) and from any static
 *    host, and for old links: `#/spaces/<id>[/change-requests/<cr>][/pages/<page>]` still parses.
 *
 * Paths (after `/app`):
 *
 *   /                                   space picker (organizations and their spaces)
 *   /settings  /sign-in  /account       settings, add an account, your tokens and sessions
 *   /new-org                            create an organization
 *   /o/<orgId>[/members|/teams|/settings]   organization home and its settings pages
 *   /o/<orgId>/c/<collectionId>         a collection (its spaces and who has access)
 *   /o/<orgId>/sites/<siteId>           a docs site of the organization
 *   /o/<orgId>/openapi/<specSlug>      an OpenAPI spec of the organization (its versions)
 *   /o/<orgId>/integrations[/<name>]    the organization's integrations and the catalog; one integration
 *   /join/<orgId>/<inviteId>            accept an invite
 *   /s/<spaceId>                        a space (first page)
 *   /s/<spaceId>/cr/<crId>              one of its change requests
 *   /s/<spaceId>/~/changes/<number>     a change request by number (resolved through REST)
 *   /s/<spaceId>[/cr/<crId>]/~/page/<pageId>   a page by id (what the app itself writes)
 *   /s/<spaceId>/<page/path>[#<section>]       a page by path (resolved once the space is known)
 *
 * A page path whose first segment is `cr` or `~` is read as the forms above, as GitBook's own
 * URLs do: the `~` segment exists so app paths never collide with page slugs.
 */

/** Organization screens. */
export type OrgTab = 'home' | 'sites' | 'openapi' | 'integrations' | 'members' | 'teams' | 'settings';

/** A docs site's screens (undefined: its overview). */
export type SiteTab = 'structure' | 'customize' | 'audience' | 'integrations' | 'settings';

/** Where the app is. */
export type Route =
  | { view: 'picker' }
  | { view: 'settings' }
  | { view: 'sign-in' }
  | { view: 'account' }
  | { view: 'new-org' }
  | { view: 'org'; orgId: string; tab: OrgTab }
  | { view: 'collection'; orgId: string; collectionId: string }
  | { view: 'openapi-spec'; orgId: string; specSlug: string }
  | { view: 'integration'; orgId: string; name: string }
  | { view: 'site'; orgId: string; siteId: string; tab?: SiteTab }
  | { view: 'join'; orgId: string; inviteId: string }
  | SpaceRoute;

/** A space, one of its change requests, one of their pages. */
export interface SpaceRoute {
  view: 'space';
  spaceId: string;
  changeRequestId?: string;
  /** A change request by its number in the space (`~/changes/<n>`): the app resolves it to an id. */
  changeRequestNumber?: number;
  pageId?: string;
  /** A page by path (`getPageByPath`): the app resolves it to an id. */
  pagePath?: string;
  /** A heading anchor inside the page. */
  section?: string;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

const isId = (s: string | undefined): s is string => s !== undefined && ID.test(s);

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/**
 * Parses an app path (`/s/abc/guide#install`, with or without the `/app` prefix or a leading `#`).
 * Unknown paths go to the picker.
 */
export function parseRoute(input: string): Route {
  let raw = input.trim();
  if (raw.startsWith('#')) raw = raw.slice(1);
  let section: string | undefined;
  const hashAt = raw.indexOf('#');
  if (hashAt >= 0) {
    section = decode(raw.slice(hashAt + 1)) || undefined;
    raw = raw.slice(0, hashAt);
  }
  raw = raw.replace(/\?.*$/, '');
  if (raw === '/app' || raw.startsWith('/app/')) raw = raw.slice(4);
  const parts = raw.split('/').filter((p) => p !== '');
  const [head, a] = parts;
  if (head === 's' && isId(a)) return parseSpace(a, parts.slice(2), section);
  if (head === 'spaces' && isId(a)) return parseLegacySpace(a, parts.slice(2));
  const screen = matchScreen(parts);
  if (screen) return screen.route;
  // An organization path this version does not know: the organization's home.
  if (head === 'o' && isId(a)) return { view: 'org', orgId: a, tab: 'home' };
  return { view: 'picker' };
}

function parseSpace(spaceId: string, parts: string[], section: string | undefined): Route {
  const route: SpaceRoute = { view: 'space', spaceId };
  if (parts[0] === 'cr' && isId(parts[1])) {
    route.changeRequestId = parts[1];
    parts = parts.slice(2);
  }
  if (parts[0] === '~') {
    if (
      parts[1] === 'changes' &&
      /^[1-9][0-9]{0,8}$/.test(parts[2] ?? '') &&
      parts.length === 3 &&
      !route.changeRequestId
    )
      route.changeRequestNumber = Number(parts[2]);
    else if (parts[1] === 'page' && isId(parts[2]) && parts.length === 3) route.pageId = parts[2];
    if (route.pageId && section) route.section = section;
    return route;
  }
  if (parts.length > 0) {
    const decoded = parts.map(decode);
    if (decoded.every((p): p is string => p !== undefined)) route.pagePath = decoded.join('/');
  }
  if ((route.pagePath || route.pageId) && section) route.section = section;
  return route;
}

/** `#/spaces/<id>[/change-requests/<cr>][/pages/<page>]`, the form of earlier versions. */
function parseLegacySpace(spaceId: string, parts: string[]): Route {
  const route: SpaceRoute = { view: 'space', spaceId };
  if (parts[0] === 'change-requests' && isId(parts[1])) {
    route.changeRequestId = parts[1];
    parts = parts.slice(2);
  }
  if (parts[0] === 'pages' && isId(parts[1])) route.pageId = parts[1];
  return route;
}

/** The hash form of a route: `#/s/abc/~/page/p1`. */
export function formatRoute(route: Route): string {
  return `#${formatPath(route)}`;
}

/** The app path of a route, without the `/app` prefix: `/s/abc/~/page/p1#intro`. */
export function formatPath(route: Route): string {
  switch (route.view) {
    case 'space': {
      let path = `/s/${route.spaceId}`;
      if (route.changeRequestId) path += `/cr/${route.changeRequestId}`;
      else if (route.changeRequestNumber) path += `/~/changes/${route.changeRequestNumber}`;
      if (route.pageId) path += `/~/page/${route.pageId}`;
      else if (route.pagePath) path += `/${route.pagePath.split('/').map(encodeURIComponent).join('/')}`;
      if (route.section && (route.pageId || route.pagePath)) path += `#${encodeURIComponent(route.section)}`;
      return path;
    }
    default: {
      const screen = screenOf(route);
      return screen ? pathOf(screen, route) : '/';
    }
  }
}

/** How the current document keeps the route: in its path under /app/ (web app), or in its hash. */
export type RoutingMode = 'history' | 'hash';

/** The mode for a location: history routing only where a server answers every /app/ path. */
export function routingMode(location: Pick<Location, 'protocol' | 'pathname'>): RoutingMode {
  return location.protocol.startsWith('http') && (location.pathname === '/app' || location.pathname.startsWith('/app/'))
    ? 'history'
    : 'hash';
}

/** Reads the route of a location (in hash mode, the whole hash; in history mode, the path and hash). */
export function routeOfLocation(location: Pick<Location, 'protocol' | 'pathname' | 'hash'>): Route {
  // An old hash link (`/app/#/spaces/...`) wins over the path it was opened on.
  if (location.hash.startsWith('#/')) return parseRoute(location.hash);
  if (routingMode(location) === 'hash') return { view: 'picker' };
  return parseRoute(`${location.pathname}${location.hash}`);
}

/** The URL to write for a route: `/app/s/…` in history mode, `#/s/…` in hash mode. */
export function hrefOf(route: Route, mode: RoutingMode): string {
  const path = formatPath(route);
  return mode === 'history' ? `/app${path}` : `#${path}`;
}

/** Whether two routes open the same document (they may differ by page only). */
export function sameDocument(a: Route, b: Route): boolean {
  if (a.view !== 'space' || b.view !== 'space') return false;
  return (
    a.spaceId === b.spaceId &&
    a.changeRequestId === b.changeRequestId &&
    a.changeRequestNumber === undefined &&
    b.changeRequestNumber === undefined
  );
}

/** A link the app can open: its route, and the server it belongs to when the link says. */
export interface AppLink {
  route: Route;
  serverUrl?: string;
}

/**
 * Reads a link from outside the app: a desktop `folio://` link or a web app URL (`urls.app`).
 *
 *   folio://app/s/<spaceId>/guide#install          (the path is the web app's, after /app)
 *   folio://s/<spaceId>                             (the same, shorter)
 *   folio://app/s/<spaceId>?server=https://docs.example.com
 *   https://docs.example.com/app/s/<spaceId>        (the server is the link's origin)
 *
 * Anything else is undefined (the caller ignores it).
 */
export function parseAppLink(link: string): AppLink | undefined {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    return undefined;
  }
  const hash = url.hash;
  if (url.protocol === 'folio:') {
    // `folio://app/s/x` parses with host "app"; `folio://s/x` with host "s"; `folio:/s/x` with none.
    const path = url.host === 'app' || url.host === '' ? url.pathname : `/${url.host}${url.pathname}`;
    const server = url.searchParams.get('server');
    const serverUrl = server && /^https?:\/\//.test(server) ? server.replace(/\/+$/, '') : undefined;
    return { route: parseRoute(`${path}${hash}`), ...(serverUrl ? { serverUrl } : {}) };
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    const at = url.pathname.indexOf('/app');
    if (at < 0 || !/^\/app(\/|$)/.test(url.pathname.slice(at))) return undefined;
    const base = url.pathname.slice(0, at);
    return {
      route: hash.startsWith('#/') ? parseRoute(hash) : parseRoute(`${url.pathname.slice(at)}${hash}`),
      serverUrl: `${url.origin}${base}`,
    };
  }
  return undefined;
}
