import { listAll, type ApiClient } from '../api/client';

/**
 * The typed client of a docs site's REST operations (sync-server/api/sites/, GitBook's names):
 * the site itself, publishing, and its structure — site spaces, sections and section groups.
 * Shared by every site screen; append new operations, do not change existing ones.
 */

export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

/** What the caller may do to the organization's sites (`edit`/`create` = manage the structure). */
export interface SitePermissions {
  view: boolean;
  access: boolean;
  edit: boolean;
  create: boolean;
  admin: boolean;
  installIntegration: boolean;
  viewAdaptiveSchema: boolean;
  editAdaptiveSchema: boolean;
}

/** GitBook's `Site`. */
export interface SiteDetails {
  object: 'site';
  id: string;
  type: string;
  appliedType: string;
  title: string;
  hostname?: string;
  basename?: string;
  proxy?: { origin: string; target: string };
  visibility: SiteVisibility;
  defaultLevel: string;
  permissions: SitePermissions;
  published: boolean;
  /** How many site spaces it has. */
  siteSpaces: number;
  createdAt: string;
  adaptiveContent: { enabled: boolean };
  agentsContext: 'excluded' | 'included';
  features: { id: string; plan: string; frozen: boolean }[];
  /** `preview`: where it is (or would be) served; `published` only while published. */
  urls: { location: string; app: string; preview: string; published?: string };
}

/** The space a site space publishes (the API's Space object; only what screens read is typed). */
export interface PublishedSpace {
  id: string;
  title: string;
  emoji?: string;
  organization?: string;
  urls?: { app?: string };
}

/** GitBook's `SiteSpace`: a space published on a site, at the root level or in a section (a variant). */
export interface SiteSpace {
  object: 'site-space';
  id: string;
  path: string;
  /** Its section, when the site has sections. */
  section?: string;
  space: PublishedSpace;
  title: string;
  default: boolean;
  condition?: string;
  draft: boolean;
  hidden: boolean;
  urls: { published?: string };
}

/** GitBook's `SiteSection`: a tab of the published site, holding one or more site spaces. */
export interface SiteSection {
  object: 'site-section';
  id: string;
  title: string;
  localizedTitle?: Record<string, string>;
  description?: string;
  localizedDescription?: Record<string, string>;
  default: boolean;
  draft: boolean;
  path: string;
  condition?: string;
  /** The group it is in. */
  sectionGroup?: string;
  siteSpaces: SiteSpace[];
  urls: { published?: string };
  icon?: string;
}

/** GitBook's `SiteSectionGroup`: a named set of sections (a drop-down tab). */
export interface SiteSectionGroup {
  object: 'site-section-group';
  id: string;
  title: string;
  draft: boolean;
  sections: SiteSection[];
  children: SiteSection[];
  icon?: string;
}

export interface CreateSiteBody {
  type?: string;
  title?: string;
  visibility?: SiteVisibility;
  /** Space ids to publish at the root level, or "new" for a new space. */
  spaces?: string[] | 'new';
}

export interface UpdateSiteBody {
  title?: string;
  visibility?: SiteVisibility;
  basename?: string;
  hostname?: string | null;
  agentsContext?: 'excluded' | 'included';
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  proxy?: string | null;
  adaptiveContent?: { enabled: boolean };
  defaultLevel?: 'inherit';
}

export interface AddSectionBody {
  spaceId: string;
  title?: string | null;
  icon?: string | null;
  draft?: boolean;
  siteSectionGroupId?: string;
}

export interface UpdateSectionBody {
  title?: string;
  localizedTitle?: Record<string, string>;
  path?: string;
  defaultSiteSpace?: string;
  condition?: string | null;
  icon?: string | null;
  draft?: boolean;
  description?: string | null;
  localizedDescription?: Record<string, string>;
  /** Moves the section to the end of that group (null: to the top level). */
  siteSectionGroupId?: string | null;
}

export interface UpdateSiteSpaceBody {
  path?: string;
  condition?: string | null;
  spaceId?: string;
}

export interface AddGroupBody {
  title: string;
  icon?: string | null;
  /** Sections moved into the new group, in this order. */
  sections?: string[];
}

export interface UpdateGroupBody {
  title?: string;
  icon?: string | null;
}

/** Where a moved item goes: before and/or after a sibling (ids); neither = at the end. */
export interface MoveTo {
  before?: string;
  after?: string;
}

/** A top-level sibling of a group move: a section outside groups or another group. */
export interface TopLevelRef {
  type: 'site-section' | 'site-section-group';
  id: string;
}

export interface GroupMoveTo {
  before?: TopLevelRef;
  after?: TopLevelRef;
}

/** The published profile (GitBook's `published-content-site`), while the site is published. */
export interface PublishedContentSite {
  object: 'published-content-site';
  site: SiteDetails;
  structure:
    | { type: 'siteSpaces'; structure: SiteSpace[] }
    | { type: 'sections'; structure: (SiteSection | SiteSectionGroup)[] };
  customizations: { site: Record<string, unknown>; siteSpaces: Record<string, unknown> };
  scripts: unknown[];
}

const pointer = <K extends string>(key: K, type: string, id: string | undefined) =>
  id === undefined ? undefined : { type, [key]: id };

/** A move body with GitBook's pointer objects ({type, siteSection: id}…). */
function moveBody(key: string, type: string, to: MoveTo) {
  const before = pointer(key, type, to.before);
  const after = pointer(key, type, to.after);
  return before || after ? { position: { ...(before ? { before } : {}), ...(after ? { after } : {}) } } : {};
}

export class SiteApi {
  constructor(
    private readonly api: ApiClient,
    readonly orgId: string,
  ) {}

  private get sites() {
    return `/orgs/${this.orgId}/sites`;
  }

  private site(siteId: string) {
    return `${this.sites}/${siteId}`;
  }

  /** Every page of a list. */
  private all<T>(path: string, query: Record<string, string | number | boolean | undefined> = {}) {
    return listAll<T>(this.api, path, query);
  }

  // The site

  listSites(filter: { space?: string; title?: string; published?: boolean } = {}) {
    return this.all<SiteDetails>(this.sites, filter);
  }
  createSite(body: CreateSiteBody) {
    return this.api.request<SiteDetails>(this.sites, { method: 'POST', body });
  }
  getSite(siteId: string) {
    return this.api.request<SiteDetails>(this.site(siteId));
  }
  updateSite(siteId: string, body: UpdateSiteBody) {
    return this.api.request<SiteDetails>(this.site(siteId), { method: 'PATCH', body });
  }
  deleteSite(siteId: string) {
    return this.api.request<void>(this.site(siteId), { method: 'DELETE' });
  }

  // Publishing (own endpoints: `published` is not a field of updateSite)

  publishSite(siteId: string) {
    return this.api.request<SiteDetails>(`${this.site(siteId)}/publish`, { method: 'POST' });
  }
  unpublishSite(siteId: string) {
    return this.api.request<SiteDetails>(`${this.site(siteId)}/unpublish`, { method: 'POST' });
  }
  /** 404 while unpublished. */
  getPublishedSite(siteId: string, shareKey?: string) {
    return this.api.request<PublishedContentSite>(`${this.site(siteId)}/published`, { query: { shareKey } });
  }

  // Site spaces

  listSiteSpaces(siteId: string, query: { default?: boolean; shareKey?: string } = {}) {
    return this.all<SiteSpace>(`${this.site(siteId)}/site-spaces`, query);
  }
  /** Publishes a space: in `sectionId`, else in the default section, else at the root level. */
  addSpaceToSite(siteId: string, spaceId: string, sectionId?: string) {
    return this.api.request<SiteSpace>(`${this.site(siteId)}/site-spaces`, {
      method: 'POST',
      body: sectionId ? { spaceId, sectionId } : { spaceId },
    });
  }
  updateSiteSpace(siteId: string, siteSpaceId: string, body: UpdateSiteSpaceBody) {
    return this.api.request<SiteSpace>(`${this.site(siteId)}/site-spaces/${siteSpaceId}`, { method: 'PATCH', body });
  }
  deleteSiteSpace(siteId: string, siteSpaceId: string) {
    return this.api.request<void>(`${this.site(siteId)}/site-spaces/${siteSpaceId}`, { method: 'DELETE' });
  }
  moveSiteSpace(siteId: string, siteSpaceId: string, to: MoveTo) {
    return this.api.request<SiteSpace>(`${this.site(siteId)}/site-spaces/${siteSpaceId}/move`, {
      method: 'POST',
      body: moveBody('siteSpace', 'site-space', to),
    });
  }

  // Sections

  /** Sections in display order (those of groups in place). */
  listSiteSections(siteId: string, shareKey?: string) {
    return this.all<SiteSection>(`${this.site(siteId)}/sections`, { shareKey });
  }
  addSection(siteId: string, body: AddSectionBody) {
    return this.api.request<SiteSection>(`${this.site(siteId)}/sections`, { method: 'POST', body });
  }
  updateSection(siteId: string, sectionId: string, body: UpdateSectionBody) {
    return this.api.request<SiteSection>(`${this.site(siteId)}/sections/${sectionId}`, { method: 'PATCH', body });
  }
  deleteSection(siteId: string, sectionId: string) {
    return this.api.request<void>(`${this.site(siteId)}/sections/${sectionId}`, { method: 'DELETE' });
  }
  /** Among its siblings: the sections of its group, or the top-level items (pointers must be sections). */
  moveSection(siteId: string, sectionId: string, to: MoveTo) {
    return this.api.request<SiteSection>(`${this.site(siteId)}/sections/${sectionId}/move`, {
      method: 'POST',
      body: moveBody('siteSection', 'site-section', to),
    });
  }

  // Section groups

  listSectionGroups(siteId: string) {
    return this.all<SiteSectionGroup>(`${this.site(siteId)}/section-groups`);
  }
  addSectionGroup(siteId: string, body: AddGroupBody) {
    return this.api.request<SiteSectionGroup>(`${this.site(siteId)}/section-groups`, { method: 'POST', body });
  }
  updateSectionGroup(siteId: string, groupId: string, body: UpdateGroupBody) {
    return this.api.request<SiteSectionGroup>(`${this.site(siteId)}/section-groups/${groupId}`, {
      method: 'PATCH',
      body,
    });
  }
  /** Its sections stay, at the top level where the group was. */
  deleteSectionGroup(siteId: string, groupId: string) {
    return this.api.request<void>(`${this.site(siteId)}/section-groups/${groupId}`, { method: 'DELETE' });
  }
  /** Among the top-level items (sections outside groups and groups). */
  moveSectionGroup(siteId: string, groupId: string, to: GroupMoveTo) {
    const position = {
      ...(to.before ? { before: to.before } : {}),
      ...(to.after ? { after: to.after } : {}),
    };
    return this.api.request<SiteSectionGroup>(`${this.site(siteId)}/section-groups/${groupId}/move`, {
      method: 'POST',
      body: to.before || to.after ? { position } : {},
    });
  }
  /** Puts the section at the end of the group. */
  addSectionToGroup(siteId: string, groupId: string, sectionId: string) {
    return this.api.request<SiteSectionGroup>(`${this.site(siteId)}/section-groups/${groupId}/sections`, {
      method: 'POST',
      body: { sectionId },
    });
  }
  /** Takes the section out of the group (to the top level, right after it). */
  removeSectionFromGroup(siteId: string, groupId: string, sectionId: string) {
    return this.api.request<void>(`${this.site(siteId)}/section-groups/${groupId}/sections/${sectionId}`, {
      method: 'DELETE',
    });
  }
}
