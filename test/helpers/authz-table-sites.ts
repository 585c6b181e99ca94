import type { SiteAction } from '../../sync-server/policy/site';
import type { OperationTable } from './authz-cases';
import { ask, type Check } from './authz-expect';
import type { World } from './authz-fixture';
import { fresh, TITLES, type Params } from './authz-fresh';

/**
 * Docs sites and their structure. Every site route first asks whether the
 * caller sees the organization's sites (guests and outsiders: 404), then what
 * the route does.
 */

const onSite =
  (action?: SiteAction) =>
  (_w: World, p: Params): Check[] => [
    ask.site(p.organizationId!, 'view'),
    ...(action ? [ask.site(p.organizationId!, action)] : []),
  ];

export const SITE_OPERATIONS: OperationTable = {
  listSites: { checks: onSite() },
  createSite: { body: () => ({ title: 'Created by the matrix' }), checks: onSite('manage') },
  getSiteById: { checks: onSite() },
  getSiteCustomizationById: { checks: onSite() },
  updateSiteCustomizationById: {
    body: () => ({ styling: { primaryColor: { light: '#123456', dark: '#abcdef' } } }),
    checks: onSite('manage'),
  },
  updateSiteById: { body: () => ({ title: TITLES.site }), checks: onSite('manage') },
  deleteSiteById: { params: fresh.site, checks: onSite('admin') },
  // A second site: unpublishing the matrix site would hide getPublishedContentSite from the cells after it.
  publishSite: { params: (w) => ({ siteId: w.publishSiteId }), checks: onSite('manage') },
  unpublishSite: { params: (w) => ({ siteId: w.publishSiteId }), checks: onSite('manage') },
  getPublishedContentSite: { checks: onSite() },
  getSitePublishingAuthById: { checks: onSite('admin') },
  regenerateSitePublishingAuthById: { checks: onSite('admin') },
  getSiteAdaptiveSchema: { checks: onSite() },
  updateSiteAdaptiveSchema: {
    body: () => ({ jsonSchema: { type: 'object', properties: {}, additionalProperties: false } }),
    checks: onSite('edit-adaptive-schema'),
  },
  listSiteAdaptiveTemplateConditions: { checks: onSite() },

  listSiteSections: { checks: onSite() },
  addSectionToSite: { body: (w) => ({ spaceId: w.spaceId }), checks: onSite('manage') },
  updateSiteSectionById: { body: () => ({ title: TITLES.section }), checks: onSite('manage') },
  deleteSiteSectionById: { params: fresh.section, checks: onSite('manage') },
  moveSiteSection: {
    params: fresh.section,
    body: (w) => ({ position: { before: { type: 'site-section', siteSection: w.sectionId } } }),
    checks: onSite('manage'),
  },

  listSiteSectionGroups: { checks: onSite() },
  addSectionGroupToSite: { body: () => ({ title: 'Added by the matrix' }), checks: onSite('manage') },
  updateSiteSectionGroupById: { body: () => ({ title: TITLES.group }), checks: onSite('manage') },
  deleteSiteSectionGroupById: { params: fresh.group, checks: onSite('manage') },
  moveSiteSectionGroup: {
    params: fresh.group,
    body: (w) => ({ position: { before: { type: 'site-section', id: w.sectionId } } }),
    checks: onSite('manage'),
  },
  addSectionToSiteSectionGroup: {
    params: fresh.section,
    body: (_w, p) => ({ sectionId: p.siteSectionId }),
    checks: onSite('manage'),
  },
  removeSectionFromSiteSectionGroup: { params: fresh.sectionInGroup, checks: onSite('manage') },

  listSiteSpaces: { checks: onSite() },
  addSpaceToSite: {
    params: fresh.unpublishedSpace,
    body: (w, p) => ({ spaceId: p.newSpaceId, sectionId: w.sectionId }),
    checks: onSite('manage'),
  },
  updateSiteSpaceById: { body: () => ({ path: TITLES.siteSpacePath }), checks: onSite('manage') },
  deleteSiteSpaceById: { params: fresh.siteSpace, checks: onSite('manage') },
  moveSiteSpace: {
    params: fresh.siteSpace,
    body: (w) => ({ position: { before: { type: 'site-space', siteSpace: w.siteSpaceId } } }),
    checks: onSite('manage'),
  },
};
