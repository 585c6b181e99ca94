import type { SectionRow, SiteSpaceRow } from '../store/sites';
import type { SiteTree } from './tree';

/**
 * Where a published site lives. Every site is served under
 * `${publicUrl}/sites/<siteId>/`; a site with a custom `hostname` is served
 * at the root of that host (same scheme and port as the public URL), which
 * is then its canonical address. Inside a site, the default section and the
 * default site space of a section have no path segment:
 * `<base>[<sectionPath>/][<siteSpacePath>/]<pagePath>`.
 */

/** What site URLs need of the server's URLs: its public root (no trailing '/'). */
export interface PublicRoot {
  readonly root: string;
}

/** Path prefix of sites served by id. */
export const SITES_PREFIX = '/sites/';

/** The canonical base URL of a site, ending with '/'. */
export function siteBaseUrl(urls: PublicRoot, site: { id: string; hostname: string | null }): string {
  if (site.hostname) {
    const root = new URL(urls.root);
    return `${root.protocol}//${site.hostname}${root.port ? `:${root.port}` : ''}/`;
  }
  return `${urls.root}${SITES_PREFIX}${site.id}/`;
}

/** Appends the share key so a share-link URL opens the site (it then sets a cookie). */
export function withShareKey(url: string, shareKey: string | undefined): string {
  return shareKey ? `${url}?share=${encodeURIComponent(shareKey)}` : url;
}

/** Joins path segments under a base that ends with '/', encoding each segment. */
export function joinSitePath(base: string, ...segments: (string | undefined)[]): string {
  const parts = segments
    .filter((s): s is string => !!s)
    .flatMap((s) => s.split('/'))
    .filter((s) => s !== '');
  return base + parts.map(encodeURIComponent).join('/');
}

/** Canonical URL of a section: the site base, plus the section path unless it is the default one. */
export function sectionUrl(urls: PublicRoot, tree: SiteTree, section: SectionRow): string {
  const base = siteBaseUrl(urls, tree.site);
  return tree.defaultSectionId() === section.id ? base : `${joinSitePath(base, section.path)}/`;
}

/** Canonical URL of a site space: its section's URL (or the site base), plus its path unless it is the default. */
export function siteSpaceUrl(urls: PublicRoot, tree: SiteTree, row: SiteSpaceRow): string {
  const section = row.section_id ? tree.section(row.section_id) : undefined;
  const base = section ? sectionUrl(urls, tree, section) : siteBaseUrl(urls, tree.site);
  return tree.isDefaultSiteSpace(row) ? base : `${joinSitePath(base, row.path)}/`;
}
