import { join, resolve, sep } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { MENU_ACTIONS, type MenuAction } from '../../shared/desktop-api';
import { APP_ORIGIN, resolveAppAsset } from '../../main/app-protocol';
import { menuTemplate } from '../../main/menu';
import { contentSecurityPolicy, isAppUrl, isPermissionAllowed, isSafeExternalUrl } from '../../main/security';
import { DEFAULT_WINDOW_SIZE, MIN_WINDOW_SIZE, currentBounds, restoreBounds } from '../../main/window-state';

/** Every item of a menu template, depth first. */
function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])]);
}

function clickAll(options: { isMac: boolean; isDev: boolean }) {
  const sent: MenuAction[] = [];
  const template = menuTemplate({ appName: 'Folio', ...options, send: (action) => sent.push(action) });
  for (const item of flatten(template)) item.click?.({} as never, undefined, {} as never);
  return { template, sent, items: flatten(template) };
}

describe('application menu', () => {
  for (const isMac of [false, true]) {
    it(`sends every menu action to the renderer, exactly once (${isMac ? 'macOS' : 'Linux/Windows'})`, () => {
      const { sent, template } = clickAll({ isMac, isDev: false });
      expect([...sent].sort()).toEqual([...MENU_ACTIONS].sort());
      const labels = template.map((item) => item.label ?? item.role);
      expect(labels).toEqual([...(isMac ? ['Folio'] : []), 'File', 'editMenu', 'View', 'windowMenu', 'help']);
    });
  }

  it('offers reload and developer tools only in development', () => {
    const roles = (isDev: boolean) => clickAll({ isMac: false, isDev }).items.map((item) => item.role);
    expect(roles(false)).not.toContain('toggleDevTools');
    expect(roles(false)).not.toContain('reload');
    expect(roles(true)).toEqual(expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']));
  });

  it('puts the document commands where users look for them, with shortcuts', () => {
    const { template } = clickAll({ isMac: false, isDev: false });
    const file = template.find((item) => item.label === 'File')!.submenu as MenuItemConstructorOptions[];
    expect(file.filter((item) => item.id).map((item) => [item.id, item.accelerator])).toEqual([
      ['new-page', 'CmdOrCtrl+N'],
      ['new-change-request', 'CmdOrCtrl+Shift+N'],
      ['open-settings', 'CmdOrCtrl+,'],
      ['sign-out', undefined],
    ]);
    const view = template.find((item) => item.label === 'View')!.submenu as MenuItemConstructorOptions[];
    expect(view.filter((item) => item.id).map((item) => item.id)).toEqual(['toggle-preview', 'find-page']);
  });
});

describe('security rules', () => {
  it('has a strict CSP that still reaches any Folio server', () => {
    const csp = contentSecurityPolicy();
    const directives = new Map(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'", 'http:', 'https:', 'ws:', 'wss:']);
    expect(directives.get('img-src')).toEqual(expect.arrayContaining(['http:', 'https:']));
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(csp).not.toContain('unsafe-eval');
  });

  it('keeps navigation on the app origins (the custom scheme, which Node says has a "null" origin)', () => {
    const origins = [APP_ORIGIN, 'http://localhost:5173'];
    expect(isAppUrl(`${APP_ORIGIN}/index.html#/space/1`, origins)).toBe(true);
    expect(isAppUrl('http://localhost:5173/', origins)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', origins)).toBe(false);
    expect(isAppUrl('folio-app://evil/index.html', origins)).toBe(false);
    expect(isAppUrl('https://docs.example.com/', origins)).toBe(false);
    expect(isAppUrl('not a url', origins)).toBe(false);
  });

  it('opens only web and mail links in the system browser', () => {
    expect(isSafeExternalUrl('https://docs.example.com/page')).toBe(true);
    expect(isSafeExternalUrl('mailto:ada@example.com')).toBe(true);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-msdt:/id', 'nonsense'])
      expect(isSafeExternalUrl(url)).toBe(false);
  });

  it('denies permissions except writing to the clipboard', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write')).toBe(true);
    for (const permission of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read'])
      expect(isPermissionAllowed(permission)).toBe(false);
  });
});

describe('folio-app:// asset resolution', () => {
  const root = resolve('/srv/folio/renderer');
  it('serves files under the renderer folder and index.html for routes', () => {
    expect(resolveAppAsset(root, `${APP_ORIGIN}/assets/index-abc.js`)).toBe(join(root, 'assets', 'index-abc.js'));
    expect(resolveAppAsset(root, `${APP_ORIGIN}/`)).toBe(join(root, 'index.html'));
    expect(resolveAppAsset(root, `${APP_ORIGIN}/spaces/abc?x=1`)).toBe(join(root, 'index.html'));
  });

  it('never answers with a file outside the folder', () => {
    const cases: [string, string | undefined][] = [
      // The URL parser collapses dot segments (also %2e%2e) at the root: these stay inside.
      [`${APP_ORIGIN}/../../etc/passwd`, join(root, 'index.html')],
      [`${APP_ORIGIN}/%2e%2e/%2e%2e/etc/passwd.txt`, join(root, 'etc', 'passwd.txt')],
      // An encoded slash survives the parser; decoded, the path would climb out.
      [`${APP_ORIGIN}/assets/%2e%2e%2f%2e%2e%2fsecret.json`, undefined],
      [
        `${APP_ORIGIN}/assets/..%5C..%5Csecret.json`,
        sep === '\\' ? undefined : join(root, 'assets', '..\\..\\secret.json'),
      ],
      [`${APP_ORIGIN}/bad%E0%A4%A`, undefined],
      [`${APP_ORIGIN}/a%00.js`, undefined],
      ['folio-app://other/index.html', undefined],
      ['file:///srv/folio/renderer/index.html', undefined],
    ];
    for (const [url, expected] of cases) expect(resolveAppAsset(root, url), url).toBe(expected);
  });
});

describe('window bounds', () => {
  const screen = { x: 0, y: 0, width: 1920, height: 1050 };
  const second = { x: 1920, y: 0, width: 1280, height: 1000 };

  it('opens a first window at the default size', () => {
    expect(restoreBounds(undefined, [screen])).toEqual(DEFAULT_WINDOW_SIZE);
  });

  it('restores saved bounds that fit, including maximized', () => {
    expect(restoreBounds({ x: 2000, y: 40, width: 1000, height: 700, maximized: true }, [screen, second])).toEqual({
      x: 2000,
      y: 40,
      width: 1000,
      height: 700,
      maximized: true,
    });
  });

  it('drops a position on a screen that is gone, and shrinks a window larger than any screen', () => {
    expect(restoreBounds({ x: 2000, y: 40, width: 3000, height: 2000 }, [screen])).toEqual({
      width: 1920,
      height: 1050,
    });
    expect(restoreBounds({ x: -5000, y: -5000, width: 100, height: 100 }, [screen])).toEqual(MIN_WINDOW_SIZE);
  });

  it('saves the normal (un-maximized) rectangle', () => {
    const win = { getNormalBounds: () => ({ x: 5, y: 6, width: 800, height: 600 }), isMaximized: () => true };
    expect(currentBounds(win)).toEqual({ x: 5, y: 6, width: 800, height: 600, maximized: true });
  });
});
