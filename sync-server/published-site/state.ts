import { createHash } from 'node:crypto';
import { SiteTree } from '../sites/tree';
import type { Queryable } from '../store/db';
import { cachedRead } from '../store/read-cache';
import { findSiteCustomization } from '../store/site-customization';
import { findSiteById, findSiteIdByHostname, type SiteRow } from '../store/sites';
import { organizationSpecs, type SpecSummary } from './openapi-source';

/**
 * What serving a published site needs from the database: the site and its
 * whole structure, with the current revision id of every space. Read through
 * the read cache, so a hot page costs no query; any write (a merge, a live
 * edit becoming a revision, a site change) invalidates it, and its TTL bounds
 * staleness from other processes.
 */
export interface PublishedState {
  tree: SiteTree;
  /** Identity of the site configuration, customization and structure, for keys of rendered pages. */
  signature: string;
  /** What the owner set of the site's customization (no defaults), or null. */
  customization: Record<string, unknown> | null;
  /** The organization's OpenAPI specs and their latest versions (API reference blocks draw from them). */
  openapiSpecs: SpecSummary[];
  /** The organization the site belongs to (where its spaces' computed pages find their specs). */
  organizationId: string;
}

/** The state of a site by id, or null when there is no such site. */
export function stateById(db: Queryable, siteId: string): Promise<PublishedState | null> {
  return cachedRead(db, `published-site:${siteId}`, async () => {
    const site = await findSiteById(db, siteId);
    return site ? stateOf(db, site) : null;
  });
}

/** The id of the site whose custom hostname is `host` (lowercase, no port), or null. Nulls are cached too. */
export function siteIdForHost(db: Queryable, host: string): Promise<string | null> {
  return cachedRead(db, `published-host:${host}`, async () => (await findSiteIdByHostname(db, host)) ?? null);
}

async function stateOf(db: Queryable, site: SiteRow): Promise<PublishedState> {
  const tree = await SiteTree.load(db, site);
  const customization = (await findSiteCustomization(db, site.id))?.settings ?? null;
  // In the signature: a spec's new version changes the keys of rendered pages, so API blocks show it at once.
  const openapiSpecs = await organizationSpecs(db, site.organization_id);
  // A space's language names its site space in the language switcher and sets `<html lang>`.
  const spaces = [...tree.spaces.values()].map((s) => [s.id, s.revision, s.title, s.language, s.deleted_at !== null]);
  const signature = createHash('sha256')
    .update(JSON.stringify([site, tree.groups, tree.sections, tree.siteSpaces, spaces, customization, openapiSpecs]))
    .digest('base64url');
  return { tree, signature, customization, openapiSpecs, organizationId: site.organization_id };
}
