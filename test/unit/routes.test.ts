import { describe, expect, it } from 'vitest';
import {
  formatPath,
  formatRoute,
  hrefOf,
  parseAppLink,
  parseRoute,
  routeOfLocation,
  routingMode,
  sameDocument,
  type Route,
} from '../../renderer/src/routes';

/** Every `urls.app` form the server builds (grep -rn "urls.app(" sync-server), and what it must open. */
const API_LINKS: [string, Route][] = [
  ['/app/o/org1', { view: 'org', orgId: 'org1', tab: 'home' }],
  ['/app/o/org1/c/col1', { view: 'collection', orgId: 'org1', collectionId: 'col1' }],
  ['/app/o/org1/sites/site1', { view: 'site', orgId: 'org1', siteId: 'site1' }],
  ['/app/s/sp1', { view: 'space', spaceId: 'sp1' }],
  ['/app/s/sp1/getting-started/install', { view: 'space', spaceId: 'sp1', pagePath: 'getting-started/install' }],
  [
    '/app/s/sp1/getting-started/install#run-it',
    { view: 'space', spaceId: 'sp1', pagePath: 'getting-started/install', section: 'run-it' },
  ],
  ['/app/s/sp1/cr/cr1', { view: 'space', spaceId: 'sp1', changeRequestId: 'cr1' }],
  ['/app/s/sp1/~/changes/12', { view: 'space', spaceId: 'sp1', changeRequestNumber: 12 }],
  ['/app/join/org1/inv1', { view: 'join', orgId: 'org1', inviteId: 'inv1' }],
  ['/app/', { view: 'picker' }],
];

describe('routes: the links the API hands out', () => {
  it.each(API_LINKS)('%s opens the right screen', (path, route) => {
    expect(parseRoute(path)).toEqual(route);
    // The same path in the hash (desktop app, static hosts) opens the same screen.
    expect(parseRoute(`#${path.slice('/app'.length)}`)).toEqual(route);
  });

  it.each(API_LINKS)('%s survives formatting (what a reload reads back)', (_path, route) => {
    expect(parseRoute(formatPath(route))).toEqual(route);
    expect(parseRoute(formatRoute(route))).toEqual(route);
    expect(parseRoute(hrefOf(route, 'history'))).toEqual(route);
  });

  it('formats the history form exactly as the server builds urls.app', () => {
    for (const [path, route] of API_LINKS) expect(hrefOf(route, 'history')).toBe(path === '/app/' ? '/app/' : path);
  });

  it('round-trips the app-only screens and pages by id', () => {
    const routes: Route[] = [
      { view: 'settings' },
      { view: 'sign-in' },
      { view: 'account' },
      { view: 'new-org' },
      { view: 'org', orgId: 'o', tab: 'members' },
      { view: 'org', orgId: 'o', tab: 'teams' },
      { view: 'org', orgId: 'o', tab: 'settings' },
      { view: 'space', spaceId: 's', pageId: 'p' },
      { view: 'space', spaceId: 's', changeRequestId: 'c', pageId: 'p' },
      { view: 'space', spaceId: 's', pageId: 'p', section: 'intro' },
    ];
    for (const route of routes) {
      expect(parseRoute(formatPath(route))).toEqual(route);
      expect(parseRoute(formatRoute(route))).toEqual(route);
    }
    expect(formatPath({ view: 'space', spaceId: 's', changeRequestId: 'c', pageId: 'p' })).toBe('/s/s/cr/c/~/page/p');
  });

  it('encodes and decodes page paths segment by segment', () => {
    const route: Route = { view: 'space', spaceId: 's', pagePath: 'über uns/FAQ?', section: 'a b' };
    expect(formatPath(route)).toBe('/s/s/%C3%BCber%20uns/FAQ%3F#a%20b');
    expect(parseRoute(formatPath(route))).toEqual(route);
  });

  it('still opens the links of earlier versions', () => {
    expect(parseRoute('#/spaces/s1/change-requests/c1/pages/p1')).toEqual({
      view: 'space',
      spaceId: 's1',
      changeRequestId: 'c1',
      pageId: 'p1',
    });
    expect(parseRoute('#/spaces/s1/pages/p1')).toEqual({ view: 'space', spaceId: 's1', pageId: 'p1' });
  });

  it('sends malformed paths to the picker or the nearest valid screen', () => {
    expect(parseRoute('/app/s/../../etc')).toEqual({ view: 'picker' });
    expect(parseRoute('/app/o/x y')).toEqual({ view: 'picker' });
    expect(parseRoute('/app/join/o1')).toEqual({ view: 'picker' });
    expect(parseRoute('/app/nowhere')).toEqual({ view: 'picker' });
    expect(parseRoute('/app/o/o1/unknown')).toEqual({ view: 'org', orgId: 'o1', tab: 'home' });
    expect(parseRoute('/app/s/s1/~/changes/0')).toEqual({ view: 'space', spaceId: 's1' });
    expect(parseRoute('/app/s/s1/~/changes/abc')).toEqual({ view: 'space', spaceId: 's1' });
    expect(parseRoute('/app/s/s1/%E0%A4%A')).toEqual({ view: 'space', spaceId: 's1' });
    expect(parseRoute('/app/settingsx')).toEqual({ view: 'picker' });
  });

  it('tells same-document moves (page changes) from document changes', () => {
    expect(sameDocument(parseRoute('/app/s/a/~/page/x'), parseRoute('/app/s/a/~/page/y'))).toBe(true);
    expect(sameDocument(parseRoute('/app/s/a'), parseRoute('/app/s/a/cr/c'))).toBe(false);
    // A change request by number is not known to be the same document until resolved.
    expect(sameDocument(parseRoute('/app/s/a/~/changes/1'), parseRoute('/app/s/a/~/changes/1'))).toBe(false);
  });
});

describe('routes: where the route lives', () => {
  it('uses history routing only under /app/ over http(s)', () => {
    expect(routingMode({ protocol: 'https:', pathname: '/app/s/x' })).toBe('history');
    expect(routingMode({ protocol: 'http:', pathname: '/app' })).toBe('history');
    expect(routingMode({ protocol: 'folio-app:', pathname: '/index.html' })).toBe('hash');
    expect(routingMode({ protocol: 'file:', pathname: '/home/u/out/renderer/index.html' })).toBe('hash');
    expect(routingMode({ protocol: 'http:', pathname: '/index.html' })).toBe('hash');
  });

  it('reads the route from the path, or from an old-style hash', () => {
    expect(routeOfLocation({ protocol: 'http:', pathname: '/app/o/o1/teams', hash: '' })).toEqual({
      view: 'org',
      orgId: 'o1',
      tab: 'teams',
    });
    expect(routeOfLocation({ protocol: 'http:', pathname: '/app/', hash: '#/spaces/s1' })).toEqual({
      view: 'space',
      spaceId: 's1',
    });
    expect(routeOfLocation({ protocol: 'http:', pathname: '/app/s/s1/intro', hash: '#setup' })).toEqual({
      view: 'space',
      spaceId: 's1',
      pagePath: 'intro',
      section: 'setup',
    });
    expect(routeOfLocation({ protocol: 'folio-app:', pathname: '/index.html', hash: '#/o/o1' })).toEqual({
      view: 'org',
      orgId: 'o1',
      tab: 'home',
    });
    expect(routeOfLocation({ protocol: 'folio-app:', pathname: '/index.html', hash: '' })).toEqual({ view: 'picker' });
  });
});

describe('routes: links from outside the app (folio:// and urls.app)', () => {
  it('maps folio:// links to the same routes as the web app', () => {
    expect(parseAppLink('folio://app/s/sp1/guide#install')).toEqual({
      route: { view: 'space', spaceId: 'sp1', pagePath: 'guide', section: 'install' },
    });
    expect(parseAppLink('folio://s/sp1')).toEqual({ route: { view: 'space', spaceId: 'sp1' } });
    expect(parseAppLink('folio://o/org1/c/col1')).toEqual({
      route: { view: 'collection', orgId: 'org1', collectionId: 'col1' },
    });
    expect(parseAppLink('folio://join/org1/inv1')).toEqual({
      route: { view: 'join', orgId: 'org1', inviteId: 'inv1' },
    });
    expect(parseAppLink('folio://app/s/sp1/~/changes/3?server=https://docs.example.com/')).toEqual({
      route: { view: 'space', spaceId: 'sp1', changeRequestNumber: 3 },
      serverUrl: 'https://docs.example.com',
    });
    expect(parseAppLink('folio:///s/sp1')).toEqual({ route: { view: 'space', spaceId: 'sp1' } });
  });

  it('maps every urls.app (absolute) to its route and server', () => {
    for (const [path, route] of API_LINKS)
      expect(parseAppLink(`https://docs.example.com${path}`)).toEqual({ route, serverUrl: 'https://docs.example.com' });
    expect(parseAppLink('https://example.com/folio/app/o/o1')).toEqual({
      route: { view: 'org', orgId: 'o1', tab: 'home' },
      serverUrl: 'https://example.com/folio',
    });
  });

  it('ignores what is not a Folio link', () => {
    expect(parseAppLink('javascript:alert(1)')).toBeUndefined();
    expect(parseAppLink('https://example.com/blog/post')).toBeUndefined();
    expect(parseAppLink('https://example.com/application/x')).toBeUndefined();
    expect(parseAppLink('not a url')).toBeUndefined();
    expect(parseAppLink('folio://app/s/sp1?server=javascript:alert(1)')).toEqual({
      route: { view: 'space', spaceId: 'sp1' },
    });
  });
});
