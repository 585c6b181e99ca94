import { describe, expect, it } from 'vitest';
import type { OrgDetails } from '../../renderer/src/org/org-api';
import { formatPath, parseRoute } from '../../renderer/src/routes';
import { matchScreen, navigationOf, SCREENS, screenOf } from '../../renderer/src/screens/registry';
import { ResourceStore, type ResourceState } from '../../renderer/src/stores/resource';

/** A loader that answers when told to, counting its calls. */
function controlledLoader<T>() {
  const calls: { key: string; resolve: (value: T) => void; reject: (err: unknown) => void }[] = [];
  const load = (key: string) =>
    new Promise<T>((resolve, reject) => {
      calls.push({ key, resolve, reject });
    });
  return { load, calls };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ResourceStore', () => {
  it('loads a key once for concurrent readers, then answers from the cache', async () => {
    const { load, calls } = controlledLoader<string>();
    const store = new ResourceStore(load);
    const a = store.get('org1');
    const b = store.get('org1');
    expect(calls).toHaveLength(1);
    calls[0]!.resolve('Acme');
    expect(await a).toBe('Acme');
    expect(await b).toBe('Acme');
    expect(await store.get('org1')).toBe('Acme');
    expect(calls).toHaveLength(1);
    expect(store.state('org1').value).toEqual({ status: 'ready', data: 'Acme' });
  });

  it('a write (set) wins over an older answer still in flight', async () => {
    const { load, calls } = controlledLoader<string>();
    const store = new ResourceStore(load);
    const pending = store.get('org1').catch(() => undefined);
    store.set('org1', 'Renamed');
    calls[0]!.resolve('Old title');
    await pending;
    expect(store.peek('org1')).toBe('Renamed');
  });

  it('invalidating a key someone shows reloads it at once, keeping the old data meanwhile', async () => {
    const { load, calls } = controlledLoader<string>();
    const store = new ResourceStore(load);
    const seen: ResourceState<string>[] = [];
    const stop = store.subscribe('org1', (state) => seen.push(state));
    calls[0]!.resolve('v1');
    await tick();
    store.invalidate('org1');
    expect(calls).toHaveLength(2);
    expect(store.state('org1').value).toEqual({ status: 'loading', data: 'v1' });
    calls[1]!.resolve('v2');
    await tick();
    expect(seen.at(-1)).toEqual({ status: 'ready', data: 'v2' });
    stop();
    // Nobody shows it any more: invalidation only marks it stale, the next reader loads it.
    store.invalidate('org1');
    expect(calls).toHaveLength(2);
    void store.get('org1');
    expect(calls).toHaveLength(3);
  });

  it('keeps a failure as an error state, and a retry loads again', async () => {
    const { load, calls } = controlledLoader<string>();
    const store = new ResourceStore(load);
    const release = store.retain('org1');
    store.ensure('org1');
    calls[0]!.reject(new Error('offline'));
    await tick();
    expect(store.state('org1').value.status).toBe('error');
    store.invalidate('org1');
    expect(calls).toHaveLength(2);
    calls[1]!.resolve('back');
    await tick();
    expect(store.peek('org1')).toBe('back');
    release();
  });

  it('update changes a loaded value in place and leaves an unloaded one alone', async () => {
    const { load, calls } = controlledLoader<string[]>();
    const store = new ResourceStore(load);
    store.update('org1', (list) => [...list, 'x']);
    expect(store.peek('org1')).toBeUndefined();
    const got = store.get('org1');
    calls[0]!.resolve(['a']);
    await got;
    store.update('org1', (list) => [...list, 'b']);
    expect(store.peek('org1')).toEqual(['a', 'b']);
  });
});

describe('screen registry', () => {
  it('every row parses from its path and formats back to it', () => {
    for (const entry of SCREENS) {
      const path = entry.path.replace(/:([A-Za-z]+)/g, (_, name: string) => `${name}1`);
      const route = parseRoute(`/app${path}`);
      expect(screenOf(route)?.id, path).toBe(entry.id);
      expect(formatPath(route), path).toBe(path);
    }
  });

  it('ids are unique and paths do not shadow each other', () => {
    expect(new Set(SCREENS.map((s) => s.id)).size).toBe(SCREENS.length);
    for (const entry of SCREENS) {
      const parts = entry.path
        .split('/')
        .filter(Boolean)
        .map((p) => (p.startsWith(':') ? 'x1' : p));
      expect(matchScreen(parts)?.entry.id).toBe(entry.id);
    }
  });

  it('an unknown organization path opens its home; ids that are not ids open nothing', () => {
    expect(parseRoute('/app/o/org1/nope')).toEqual({ view: 'org', orgId: 'org1', tab: 'home' });
    expect(parseRoute('/app/o/org1/sites/bad%20id')).toEqual({ view: 'org', orgId: 'org1', tab: 'home' });
    expect(parseRoute('/app/nowhere')).toEqual({ view: 'picker' });
  });

  it('navigation lists only what the caller may see', () => {
    const org = (listMembers: boolean, listTeams: boolean, createContent = false) =>
      ({
        permissions: { admin: false, view: true, createContent, listMembers, listTeams, listIntegrations: listMembers },
      }) as OrgDetails;
    const ids = (o: OrgDetails | undefined) => navigationOf('org', o).map((e) => e.id);
    expect(ids(org(true, true))).toEqual([
      'org-home',
      'org-sites',
      'org-openapi',
      'org-integrations',
      'org-members',
      'org-teams',
      'org-settings',
    ]);
    expect(ids(org(false, false))).toEqual(['org-home', 'org-sites', 'org-openapi', 'org-settings']);
    // A site's settings are for those who manage sites (the "create" role); a reader sees its overview and structure.
    expect(navigationOf('site', org(true, true, true)).map((e) => e.id)).toEqual([
      'site-overview',
      'site-structure',
      'site-customize',
      'site-audience',
      'site-integrations',
      'site-settings',
    ]);
    expect(navigationOf('site', org(true, true)).map((e) => e.id)).toEqual(['site-overview', 'site-structure']);
  });
});
