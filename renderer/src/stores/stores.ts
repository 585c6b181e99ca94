import type { ApiClient } from '../api/client';
import type { List, Organization, Space } from '../api/types';
import type { Collection, Member, OrgDetails, Site, SpaceSummary, Team } from '../org/org-api';
import { ResourceStore } from './resource';

/**
 * The signed-in account's client state: one store per kind of resource, shared by every screen
 * (built once per session by the app, reached through `useApp().stores`). Writes that change a
 * resource go through the methods here, so each write updates or invalidates exactly what it
 * changes, and every screen showing it (and the window title) follows.
 */
export class Stores {
  /** The organizations the account belongs to (the picker's list). */
  readonly orgs: ResourceStore<'mine', Organization[]>;
  readonly org: ResourceStore<string, OrgDetails>;
  readonly orgSpaces: ResourceStore<string, SpaceSummary[]>;
  readonly orgCollections: ResourceStore<string, Collection[]>;
  readonly orgMembers: ResourceStore<string, Member[]>;
  readonly orgTeams: ResourceStore<string, Team[]>;
  readonly orgSites: ResourceStore<string, Site[]>;
  readonly space: ResourceStore<string, Space>;

  constructor(readonly api: ApiClient) {
    const all = async <T>(path: string): Promise<T[]> => {
      const items: T[] = [];
      let page: string | undefined;
      do {
        const list: List<T> = await api.request<List<T>>(path, { query: { limit: 1000, page } });
        items.push(...list.items);
        page = list.next?.page;
      } while (page);
      return items;
    };
    this.orgs = new ResourceStore(() => all<Organization>('/orgs'));
    this.org = new ResourceStore((orgId) => api.request<OrgDetails>(`/orgs/${orgId}`));
    this.orgSpaces = new ResourceStore((orgId) => all<SpaceSummary>(`/orgs/${orgId}/spaces`));
    this.orgCollections = new ResourceStore((orgId) => all<Collection>(`/orgs/${orgId}/collections`));
    this.orgMembers = new ResourceStore((orgId) => all<Member>(`/orgs/${orgId}/members`));
    this.orgTeams = new ResourceStore((orgId) => all<Team>(`/orgs/${orgId}/teams`));
    this.orgSites = new ResourceStore((orgId) => all<Site>(`/orgs/${orgId}/sites`));
    this.space = new ResourceStore((spaceId) => api.request<Space>(`/spaces/${spaceId}`));
  }

  /** Renames a space: the server's answer goes to every list and screen that shows it. */
  async renameSpace(spaceId: string, title: string): Promise<Space> {
    const space = await this.api.request<Space>(`/spaces/${spaceId}`, { method: 'PATCH', body: { title } });
    this.spaceChanged(space);
    return space;
  }

  /** A space changed elsewhere (a PATCH of another screen, a live update): refresh its copies. */
  spaceChanged(space: Space): void {
    const old = this.space.peek(space.id);
    this.space.set(space.id, { ...old, ...space });
    const orgId = space.organization ?? old?.organization;
    if (orgId)
      this.orgSpaces.update(orgId, (list) =>
        list.map((s) => (s.id === space.id ? { ...s, title: space.title, emoji: space.emoji ?? s.emoji } : s)),
      );
  }

  /** Renames an organization. */
  async renameOrg(orgId: string, title: string): Promise<OrgDetails> {
    const org = await this.api.request<OrgDetails>(`/orgs/${orgId}`, { method: 'PATCH', body: { title } });
    this.org.set(orgId, org);
    this.orgs.update('mine', (list) => list.map((o) => (o.id === orgId ? { ...o, title: org.title } : o)));
    return org;
  }
}
