import type { ApiClient } from '../api/client';
import type { Site } from '../org/org-api';
import {
  SiteApi,
  type AddGroupBody,
  type AddSectionBody,
  type CreateSiteBody,
  type MoveTo,
  type SiteDetails,
  type UpdateGroupBody,
  type UpdateSectionBody,
  type UpdateSiteBody,
  type UpdateSiteSpaceBody,
} from '../sites/site-api';
import type { SiteStructure, TopLevelStep } from '../sites/structure/model';
import { ResourceStore } from './resource';

/** What the site stores need of the app's other stores (the `Stores` they are part of). */
export interface SiteStoreHost {
  readonly orgSites: ResourceStore<string, Site[]>;
  readonly site: ResourceStore<[string, string], SiteDetails>;
  siteChanged(orgId: string, site: SiteDetails): void;
  updateSite(orgId: string, siteId: string, body: UpdateSiteBody): Promise<SiteDetails>;
}

/**
 * A docs site's structure (sections, section groups, site spaces) and the writes that change it.
 * A structure write answers with one item, while it may change others (the first section gathers
 * the root-level site spaces, a new default unmarks the old one), so each write reloads the
 * structure before it returns: the screen then shows the server's order and defaults, never a
 * guess; and the site (its count of site spaces) and the organization's list are refreshed.
 */
export class SiteStores {
  /** The structure of a site, by [organization, site]. */
  readonly structure: ResourceStore<[string, string], SiteStructure>;

  constructor(
    private readonly api: ApiClient,
    private readonly host: SiteStoreHost,
  ) {
    this.structure = new ResourceStore(
      async ([orgId, siteId]) => {
        const sites = new SiteApi(api, orgId);
        const [sections, groups, siteSpaces] = await Promise.all([
          sites.listSiteSections(siteId),
          sites.listSectionGroups(siteId),
          sites.listSiteSpaces(siteId),
        ]);
        return { sections, groups, siteSpaces };
      },
      { keyOf: (key) => key.join('/') },
    );
  }

  private sites(orgId: string): SiteApi {
    return new SiteApi(this.api, orgId);
  }

  /** Creates a site: it joins the organization's list and is cached for the screen that opens it. */
  async createSite(orgId: string, body: CreateSiteBody): Promise<SiteDetails> {
    const site = await this.sites(orgId).createSite(body);
    this.host.site.set([orgId, site.id], site);
    this.host.orgSites.update(orgId, (list) => [...list.filter((s) => s.id !== site.id), site]);
    return site;
  }

  /** Runs a structure write, then reloads what it may have changed (see the class comment). */
  private async write<T>(orgId: string, siteId: string, run: (sites: SiteApi) => Promise<T>): Promise<T> {
    try {
      return await run(this.sites(orgId));
    } finally {
      // Also after a refusal: a 400/409 may come from a structure changed elsewhere meanwhile.
      await this.refresh(orgId, siteId);
    }
  }

  /** Reloads the structure (awaited), and marks the site and the organization's list stale. */
  async refresh(orgId: string, siteId: string): Promise<void> {
    this.structure.invalidate([orgId, siteId]);
    this.host.site.invalidate([orgId, siteId]);
    this.host.orgSites.invalidate(orgId);
    await this.structure.get([orgId, siteId]).catch(() => undefined);
  }

  // Site spaces

  /** Publishes a space: in `sectionId` (a variant), else in the default section, else at the root level. */
  addSpace(orgId: string, siteId: string, spaceId: string, sectionId?: string) {
    return this.write(orgId, siteId, (s) => s.addSpaceToSite(siteId, spaceId, sectionId));
  }
  updateSiteSpace(orgId: string, siteId: string, siteSpaceId: string, body: UpdateSiteSpaceBody) {
    return this.write(orgId, siteId, (s) => s.updateSiteSpace(siteId, siteSpaceId, body));
  }
  removeSiteSpace(orgId: string, siteId: string, siteSpaceId: string) {
    return this.write(orgId, siteId, (s) => s.deleteSiteSpace(siteId, siteSpaceId));
  }
  moveSiteSpace(orgId: string, siteId: string, siteSpaceId: string, to: MoveTo) {
    return this.write(orgId, siteId, (s) => s.moveSiteSpace(siteId, siteSpaceId, to));
  }
  /** The default site space of a site without sections (a site setting). */
  setDefaultRootSiteSpace(orgId: string, siteId: string, siteSpaceId: string) {
    return this.write(orgId, siteId, () => this.host.updateSite(orgId, siteId, { defaultSiteSpace: siteSpaceId }));
  }

  // Sections

  addSection(orgId: string, siteId: string, body: AddSectionBody) {
    return this.write(orgId, siteId, (s) => s.addSection(siteId, body));
  }
  updateSection(orgId: string, siteId: string, sectionId: string, body: UpdateSectionBody) {
    return this.write(orgId, siteId, (s) => s.updateSection(siteId, sectionId, body));
  }
  deleteSection(orgId: string, siteId: string, sectionId: string) {
    return this.write(orgId, siteId, (s) => s.deleteSection(siteId, sectionId));
  }
  /** Moves a section among the sections of its group. */
  moveSection(orgId: string, siteId: string, sectionId: string, to: MoveTo) {
    return this.write(orgId, siteId, (s) => s.moveSection(siteId, sectionId, to));
  }
  /** The section the published site opens on (a site setting). */
  setDefaultSection(orgId: string, siteId: string, sectionId: string) {
    return this.write(orgId, siteId, () => this.host.updateSite(orgId, siteId, { defaultSiteSection: sectionId }));
  }

  /** Moves a top-level item: the requests of a plan (structure/model.ts), one after the other. */
  moveTopLevel(orgId: string, siteId: string, steps: readonly TopLevelStep[]) {
    return this.write(orgId, siteId, async (s) => {
      for (const step of steps) {
        if (step.kind === 'section') await s.moveSection(siteId, step.id, step.to);
        else await s.moveSectionGroup(siteId, step.id, step.to);
      }
    });
  }

  // Section groups

  addGroup(orgId: string, siteId: string, body: AddGroupBody) {
    return this.write(orgId, siteId, (s) => s.addSectionGroup(siteId, body));
  }
  updateGroup(orgId: string, siteId: string, groupId: string, body: UpdateGroupBody) {
    return this.write(orgId, siteId, (s) => s.updateSectionGroup(siteId, groupId, body));
  }
  /** Its sections stay, where the group was. */
  deleteGroup(orgId: string, siteId: string, groupId: string) {
    return this.write(orgId, siteId, (s) => s.deleteSectionGroup(siteId, groupId));
  }
  addSectionToGroup(orgId: string, siteId: string, groupId: string, sectionId: string) {
    return this.write(orgId, siteId, (s) => s.addSectionToGroup(siteId, groupId, sectionId));
  }
  removeSectionFromGroup(orgId: string, siteId: string, groupId: string, sectionId: string) {
    return this.write(orgId, siteId, (s) => s.removeSectionFromGroup(siteId, groupId, sectionId));
  }
}
