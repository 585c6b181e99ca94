import { describe, expect, it } from 'vitest';
import { ApiError, type ApiClient, type RequestOptions } from '../../renderer/src/api/client';
import type { Site } from '../../renderer/src/org/org-api';
import type { SiteDetails, UpdateSiteBody } from '../../renderer/src/sites/site-api';
import { ResourceStore } from '../../renderer/src/stores/resource';
import { SiteStores } from '../../renderer/src/stores/sites';

/**
 * The site stores against a fake server: a created site joins the organization's list, and every
 * structure write — refused or not — reloads the structure before it returns, so the screen
 * shows the server's order and defaults.
 */

type Call = { method: string; path: string; body?: unknown };

function fakeServer(answer: (call: Call) => unknown) {
  const calls: Call[] = [];
  const api = {
    request: async (path: string, options: RequestOptions = {}) => {
      const call = { method: options.method ?? 'GET', path, body: options.body };
      calls.push(call);
      const result = answer(call);
      if (result instanceof Error) throw result;
      return result;
    },
  } as unknown as ApiClient;
  return { api, calls };
}

const site = (id: string, title: string) =>
  ({
    id,
    title,
    published: false,
    visibility: 'public',
    siteSpaces: 0,
    urls: { app: '', preview: '' },
  }) as unknown as SiteDetails;

function storesFor(api: ApiClient) {
  const orgSites = new ResourceStore<string, Site[]>(async () => [site('s1', 'Old')]);
  const siteStore = new ResourceStore<[string, string], SiteDetails>(async ([, id]) => site(id, 'Loaded'), {
    keyOf: (k) => k.join('/'),
  });
  const host = {
    orgSites,
    site: siteStore,
    siteChanged: (orgId: string, s: SiteDetails) => siteStore.set([orgId, s.id], s),
    updateSite: async (orgId: string, siteId: string, body: UpdateSiteBody) =>
      api.request<SiteDetails>(`/orgs/${orgId}/sites/${siteId}`, { method: 'PATCH', body }),
  };
  return { sites: new SiteStores(api, host), orgSites, siteStore };
}

const empty = { items: [] };

describe('SiteStores', () => {
  it('a created site joins the organization’s list and the site cache', async () => {
    const { api } = fakeServer((c) => (c.method === 'POST' ? site('s2', 'Handbook') : empty));
    const { sites, orgSites, siteStore } = storesFor(api);
    await orgSites.get('o1');
    await sites.createSite('o1', { title: 'Handbook' });
    expect(orgSites.peek('o1')!.map((s) => s.title)).toEqual(['Old', 'Handbook']);
    expect(siteStore.peek(['o1', 's2'])!.title).toBe('Handbook');
  });

  it('loads the structure from the three lists, and reloads it after a write', async () => {
    let sections = [{ id: 'a', title: 'A' }];
    const { api, calls } = fakeServer((c) => {
      if (c.method === 'POST' && c.path.endsWith('/move')) {
        sections = [{ id: 'b', title: 'B' }, ...sections];
        return sections[0];
      }
      if (c.path.endsWith('/sections')) return { items: sections };
      return empty;
    });
    const { sites } = storesFor(api);
    const key: [string, string] = ['o1', 's1'];
    const stop = sites.structure.subscribe(key, () => undefined);
    await sites.structure.get(key);
    expect(sites.structure.peek(key)!.sections.map((s) => s.id)).toEqual(['a']);
    await sites.moveSection('o1', 's1', 'b', { before: 'a' });
    // The reload is done when the write returns.
    expect(sites.structure.peek(key)!.sections.map((s) => s.id)).toEqual(['b', 'a']);
    const move = calls.find((c) => c.path.endsWith('/move'))!;
    expect(move).toEqual({
      method: 'POST',
      path: '/orgs/o1/sites/s1/sections/b/move',
      body: { position: { before: { type: 'site-section', siteSection: 'a' } } },
    });
    stop();
  });

  it('a refused write throws the server’s error and still reloads (the screen shows what is true)', async () => {
    let lists = 0;
    const { api } = fakeServer((c) => {
      if (c.method === 'PATCH') return new ApiError(400, 'Invalid path: another section already uses "guide"');
      if (c.path.endsWith('/sections')) lists++;
      return empty;
    });
    const { sites } = storesFor(api);
    await sites.structure.get(['o1', 's1']);
    const before = lists;
    await expect(sites.updateSection('o1', 's1', 'a', { path: 'guide' })).rejects.toThrow('already uses "guide"');
    expect(lists).toBe(before + 1);
  });
});
