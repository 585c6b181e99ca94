import type { ComponentType } from 'preact';
import type { OrgDetails } from '../org/org-api';
import type { Route } from '../routes';

/**
 * The one table of the app's screens (Outline's useSettingsConfig is the pattern): each row is a
 * path, a label, the screen, the navigation it appears in and who may see it. Route parsing and
 * formatting (routes.ts), the organization's and a site's navigation, and the app's dispatch
 * (app.tsx) all read this table, so adding a screen is adding a row (see docs/contributing.md).
 *
 * A space and its pages (`/s/…`) are not rows: their paths carry page paths and are parsed by
 * routes.ts itself.
 */

/** A screen component: it gets the route it was opened for. */
export type ScreenComponent = ComponentType<{ route: Route }>;

/** The frame a screen is drawn in. */
export type ScreenFrame =
  /** Full window, its own top bar (picker, settings, sign-in). */
  | 'bare'
  /** Top bar and the account's pages. */
  | 'account'
  /** Top bar and the organization's navigation (needs `orgId`). */
  | 'org'
  /** The organization's frame, plus the site's own tabs (needs `orgId` and `siteId`). */
  | 'site';

export interface ScreenEntry {
  /** Unique id; also the `data-testid` suffix of its navigation link. */
  id: string;
  /** Path under /app, `:name` segments are route fields (ids). */
  path: string;
  /** The route fields this row fixes besides its parameters (`view`, `tab`). */
  fixed: Record<string, string | undefined>;
  /** Label in navigation and the window title. */
  label: string;
  frame: ScreenFrame;
  /** The navigation list the row appears in. */
  group?: 'org' | 'site';
  /** The navigation row marked while this screen (not itself in a list) is open: a spec's under the specs. */
  parent?: string;
  /** Whether the caller may see it (hidden from navigation; the screen itself says "not allowed"). */
  visible?: (org: OrgDetails) => boolean;
  /** Shown to a signed-out visitor (otherwise the sign-in form opens, then this screen). */
  public?: boolean;
  /** The screen's module, loaded on first use (its default export is the component). */
  load: () => Promise<{ default: ScreenComponent }>;
}

const ORG = { view: 'org' };
const SITE = { view: 'site' };

export const SCREENS: readonly ScreenEntry[] = [
  {
    id: 'picker',
    path: '/',
    fixed: { view: 'picker' },
    label: 'Spaces',
    frame: 'bare',
    load: () => import('../views/picker-screen'),
  },
  {
    id: 'settings',
    path: '/settings',
    fixed: { view: 'settings' },
    label: 'Settings',
    frame: 'bare',
    public: true,
    load: () => import('../views/settings-screen'),
  },
  {
    id: 'sign-in',
    path: '/sign-in',
    fixed: { view: 'sign-in' },
    label: 'Sign in',
    frame: 'bare',
    public: true,
    load: () => import('../views/sign-in-screen'),
  },
  {
    id: 'account',
    path: '/account',
    fixed: { view: 'account' },
    label: 'Account',
    frame: 'account',
    load: () => import('../org/account-screen'),
  },
  {
    id: 'new-org',
    path: '/new-org',
    fixed: { view: 'new-org' },
    label: 'New organization',
    frame: 'account',
    load: () => import('../org/new-org-screen'),
  },
  {
    id: 'join',
    path: '/join/:orgId/:inviteId',
    fixed: { view: 'join' },
    label: 'Join',
    frame: 'account',
    load: () => import('../org/join-screen'),
  },
  {
    id: 'org-home',
    path: '/o/:orgId',
    fixed: { ...ORG, tab: 'home' },
    label: 'Spaces & collections',
    frame: 'org',
    group: 'org',
    load: () => import('../org/home-screen'),
  },
  {
    id: 'org-sites',
    path: '/o/:orgId/sites',
    fixed: { ...ORG, tab: 'sites' },
    label: 'Docs sites',
    frame: 'org',
    group: 'org',
    load: () => import('../sites/sites-screen'),
  },
  {
    id: 'org-openapi',
    path: '/o/:orgId/openapi',
    fixed: { ...ORG, tab: 'openapi' },
    label: 'OpenAPI specs',
    frame: 'org',
    group: 'org',
    load: () => import('../openapi/specs-screen'),
  },
  {
    id: 'openapi-spec',
    path: '/o/:orgId/openapi/:specSlug',
    fixed: { view: 'openapi-spec' },
    label: 'OpenAPI spec',
    frame: 'org',
    parent: 'org-openapi',
    load: () => import('../openapi/spec-screen'),
  },
  {
    id: 'org-integrations',
    path: '/o/:orgId/integrations',
    fixed: { ...ORG, tab: 'integrations' },
    label: 'Integrations',
    frame: 'org',
    group: 'org',
    // Guests see no integrations (the API answers 404 to them).
    visible: (org) => org.permissions.listIntegrations,
    load: () => import('../integrations/integrations-screen'),
  },
  {
    id: 'integration',
    path: '/o/:orgId/integrations/:name',
    fixed: { view: 'integration' },
    label: 'Integration',
    frame: 'org',
    parent: 'org-integrations',
    load: () => import('../integrations/integration-screen'),
  },
  {
    id: 'org-members',
    path: '/o/:orgId/members',
    fixed: { ...ORG, tab: 'members' },
    label: 'Members',
    frame: 'org',
    group: 'org',
    visible: (org) => org.permissions.listMembers,
    load: () => import('../org/members-screen'),
  },
  {
    id: 'org-teams',
    path: '/o/:orgId/teams',
    fixed: { ...ORG, tab: 'teams' },
    label: 'Teams',
    frame: 'org',
    group: 'org',
    visible: (org) => org.permissions.listTeams,
    load: () => import('../org/teams-screen'),
  },
  {
    id: 'org-settings',
    path: '/o/:orgId/settings',
    fixed: { ...ORG, tab: 'settings' },
    label: 'Settings',
    frame: 'org',
    group: 'org',
    load: () => import('../org/settings-screen'),
  },
  {
    id: 'collection',
    path: '/o/:orgId/c/:collectionId',
    fixed: { view: 'collection' },
    label: 'Collection',
    frame: 'org',
    load: () => import('../org/collection-screen'),
  },
  {
    id: 'site-overview',
    path: '/o/:orgId/sites/:siteId',
    fixed: { ...SITE, tab: undefined },
    label: 'Overview',
    frame: 'site',
    group: 'site',
    load: () => import('../sites/overview-screen'),
  },
  {
    id: 'site-structure',
    path: '/o/:orgId/sites/:siteId/structure',
    fixed: { ...SITE, tab: 'structure' },
    label: 'Structure',
    frame: 'site',
    group: 'site',
    load: () => import('../sites/structure-screen'),
  },
  {
    id: 'site-customize',
    path: '/o/:orgId/sites/:siteId/customize',
    fixed: { ...SITE, tab: 'customize' },
    label: 'Customization',
    frame: 'site',
    group: 'site',
    // The site's settings are for those who manage it (the "create" role), as GitBook's are.
    visible: (org) => org.permissions.createContent,
    load: () => import('../sites/customize-screen'),
  },
  {
    id: 'site-audience',
    path: '/o/:orgId/sites/:siteId/audience',
    fixed: { ...SITE, tab: 'audience' },
    label: 'Audience',
    frame: 'site',
    group: 'site',
    // The site's settings are for those who manage it (the "create" role), as GitBook's are.
    visible: (org) => org.permissions.createContent,
    load: () => import('../sites/audience-screen'),
  },
  {
    id: 'site-integrations',
    path: '/o/:orgId/sites/:siteId/integrations',
    fixed: { ...SITE, tab: 'integrations' },
    label: 'Integrations',
    frame: 'site',
    group: 'site',
    visible: (org) => org.permissions.createContent,
    load: () => import('../integrations/site-integrations-screen'),
  },
  {
    id: 'site-settings',
    path: '/o/:orgId/sites/:siteId/settings',
    fixed: { ...SITE, tab: 'settings' },
    label: 'Settings',
    frame: 'site',
    group: 'site',
    // The site's settings are for those who manage it (the "create" role), as GitBook's are.
    visible: (org) => org.permissions.createContent,
    load: () => import('../sites/settings-screen'),
  },
];

/** An id or slug segment (OpenAPI spec slugs run to 100 characters; integration names have dots). */
const ID = /^(?!\.+$)[A-Za-z0-9_.-]{1,100}$/;

/** The row and route of an app path split in segments (no `/app`, no `/s/…`), or undefined. */
export function matchScreen(parts: string[]): { entry: ScreenEntry; route: Route } | undefined {
  for (const entry of SCREENS) {
    const pattern = entry.path.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = pattern.every((segment, i) => {
      const part = parts[i]!;
      if (!segment.startsWith(':')) return segment === part;
      if (!ID.test(part)) return false;
      params[segment.slice(1)] = part;
      return true;
    });
    if (!ok) continue;
    const route = { ...params } as Record<string, string>;
    for (const [key, value] of Object.entries(entry.fixed)) if (value !== undefined) route[key] = value;
    return { entry, route: route as unknown as Route };
  }
  return undefined;
}

/** The row that shows `route` (undefined for a space). */
export function screenOf(route: Route): ScreenEntry | undefined {
  const fields = route as unknown as Record<string, unknown>;
  return SCREENS.find((entry) => Object.entries(entry.fixed).every(([key, value]) => fields[key] === value));
}

/** The path of a route shown by a row. */
export function pathOf(entry: ScreenEntry, route: Route): string {
  const fields = route as unknown as Record<string, string>;
  const path = entry.path.replace(/:([A-Za-z]+)/g, (_, name: string) => fields[name] ?? '');
  return path;
}

/** The rows of a navigation group the caller may see. */
export function navigationOf(group: 'org' | 'site', org: OrgDetails | undefined): ScreenEntry[] {
  return SCREENS.filter(
    (entry) => entry.group === group && (!entry.visible || (org !== undefined && entry.visible(org))),
  );
}
