import { listAll, type ApiClient } from '../api/client';
import type { Organization, Space } from '../api/types';
import type { Collection, Member, OrgDetails, Site, SpaceSummary, Team } from '../org/org-api';
import type { AccessTarget, AccountUser, Credential, Grants, InviteLink, TeamMember } from '../org/org-api';
import { SiteApi, type SiteDetails, type UpdateSiteBody } from '../sites/site-api';
import { updateCustomization, type CustomizationChange, type SiteCustomization } from '../sites/settings-api';
import { ChangeRequestStores } from '../change-requests/cr-stores';
import { OpenApiStores } from './openapi';
import { ResourceStore } from './resource';
import { listTemplates, type SpaceTemplate } from '../templates/templates-api';
import { SiteStores } from './sites';

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
  /** The signed-in person. */
  readonly user: ResourceStore<'me', AccountUser>;
  /** The signed-in person's API tokens, web sessions and desktop devices. */
  readonly credentials: ResourceStore<'mine', Credential[]>;
  /** An organization's invite links (organization admins only). */
  readonly orgInviteLinks: ResourceStore<string, InviteLink[]>;
  /** A team's members, by [organization, team]. */
  readonly teamMembers: ResourceStore<[string, string], TeamMember[]>;
  /** Who was given a role on a space or collection directly. */
  readonly accessGrants: ResourceStore<AccessTarget, Grants>;
  /** A docs site, by [organization, site]. */
  readonly site: ResourceStore<[string, string], SiteDetails>;
  /** A docs site's customization (logo, colours, header links…), by [organization, site]. */
  readonly siteCustomization: ResourceStore<[string, string], SiteCustomization>;
  /** Docs sites' structures and the writes that change them (stores/sites.ts). */
  readonly sites: SiteStores;
  /** Change requests of spaces (lists, one request, its reviews) and their writes (change-requests/cr-stores.ts). */
  readonly changeRequests: ChangeRequestStores;
  /** The server's built-in space templates: a fixed catalogue, loaded on first use. */
  readonly templates: ResourceStore<'all', SpaceTemplate[]>;
  /** The organization's OpenAPI specs and their versions, and the writes that change them (stores/openapi.ts). */
  readonly openapi: OpenApiStores;

  constructor(readonly api: ApiClient) {
    const all = <T>(path: string) => listAll<T>(api, path);
    this.orgs = new ResourceStore(() => all<Organization>('/orgs'));
    this.org = new ResourceStore((orgId) => api.request<OrgDetails>(`/orgs/${orgId}`));
    this.orgSpaces = new ResourceStore((orgId) => all<SpaceSummary>(`/orgs/${orgId}/spaces`));
    this.orgCollections = new ResourceStore((orgId) => all<Collection>(`/orgs/${orgId}/collections`));
    this.orgMembers = new ResourceStore((orgId) => all<Member>(`/orgs/${orgId}/members`));
    this.orgTeams = new ResourceStore((orgId) => all<Team>(`/orgs/${orgId}/teams`));
    this.orgSites = new ResourceStore((orgId) => all<Site>(`/orgs/${orgId}/sites`));
    this.space = new ResourceStore((spaceId) => api.request<Space>(`/spaces/${spaceId}`));
    this.templates = new ResourceStore(() => listTemplates(api));
    this.user = new ResourceStore(() => api.request<AccountUser>('/user'));
    this.credentials = new ResourceStore(() => all<Credential>('/user/tokens'));
    this.orgInviteLinks = new ResourceStore((orgId) => all<InviteLink>(`/orgs/${orgId}/link-invites`));
    this.teamMembers = new ResourceStore(
      ([orgId, teamId]) => all<TeamMember>(`/orgs/${orgId}/teams/${teamId}/members`),
      { keyOf: (key) => key.join('/') },
    );
    const targetPath = (t: AccessTarget) => ('space' in t ? `/spaces/${t.space}` : `/collections/${t.collection}`);
    this.accessGrants = new ResourceStore(
      async (target) => {
        const [users, teams] = await Promise.all([
          all<Grants['users'][number]>(`${targetPath(target)}/permissions/users`),
          all<Grants['teams'][number]>(`${targetPath(target)}/permissions/teams`),
        ]);
        return { users, teams };
      },
      { keyOf: targetPath },
    );
    this.site = new ResourceStore(([orgId, siteId]) => new SiteApi(api, orgId).getSite(siteId), {
      keyOf: (key) => key.join('/'),
    });
    this.siteCustomization = new ResourceStore(
      ([orgId, siteId]) => api.request<SiteCustomization>(`/orgs/${orgId}/sites/${siteId}/customization`),
      { keyOf: (key) => key.join('/') },
    );
    this.sites = new SiteStores(api, this);
    this.changeRequests = new ChangeRequestStores(api, this.space);
    this.openapi = new OpenApiStores(api);
  }

  /** A site changed (settings, publishing): its own copy and its row in the organization's list. */
  siteChanged(orgId: string, site: SiteDetails): void {
    this.site.set([orgId, site.id], site);
    this.orgSites.update(orgId, (list) => list.map((s) => (s.id === site.id ? { ...s, ...site } : s)));
  }

  /** Changes a site's settings (title, visibility, hostname…). */
  async updateSite(orgId: string, siteId: string, body: UpdateSiteBody): Promise<SiteDetails> {
    const site = await new SiteApi(this.api, orgId).updateSite(siteId, body);
    this.siteChanged(orgId, site);
    // The published URLs of its sections and site spaces carry the host and (share-link) the key.
    if (body.visibility !== undefined || body.hostname !== undefined || body.basename !== undefined)
      this.sites.structure.invalidate([orgId, siteId]);
    return site;
  }

  /** Publishes or unpublishes a site. */
  async setSitePublished(orgId: string, siteId: string, published: boolean): Promise<SiteDetails> {
    const sites = new SiteApi(this.api, orgId);
    const site = await (published ? sites.publishSite(siteId) : sites.unpublishSite(siteId));
    this.siteChanged(orgId, site);
    // Its sections and site spaces have published URLs only while it is published.
    this.sites.structure.invalidate([orgId, siteId]);
    return site;
  }

  /** Deletes a site: it leaves the organization's list, and its copies are dropped. */
  async deleteSite(orgId: string, siteId: string): Promise<void> {
    await new SiteApi(this.api, orgId).deleteSite(siteId);
    this.orgSites.update(orgId, (list) => list.filter((s) => s.id !== siteId));
    this.site.invalidate([orgId, siteId]);
    this.siteCustomization.invalidate([orgId, siteId]);
    this.sites.structure.invalidate([orgId, siteId]);
  }

  /** Saves a change of a site's customization; the server's merged answer replaces the copy. */
  async updateSiteCustomization(
    orgId: string,
    siteId: string,
    change: CustomizationChange,
  ): Promise<SiteCustomization> {
    const saved = await updateCustomization(this.api, orgId, siteId, change);
    this.siteCustomization.set([orgId, siteId], saved);
    return saved;
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

  /** Creates a space (in a collection when `parent` is given): it joins its organization's list at once. */
  async createSpace(orgId: string, title: string, parent?: string): Promise<SpaceSummary> {
    const space = await this.api.request<SpaceSummary>(`/orgs/${orgId}/spaces`, {
      method: 'POST',
      body: parent ? { title, parent } : { title },
    });
    this.orgSpaces.update(orgId, (list) => [...list.filter((s) => s.id !== space.id), space]);
    return space;
  }
}
