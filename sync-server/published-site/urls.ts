import type { AppContext } from '../context';

/**
 * Where a published site lives. Every site is served under
 * `${publicUrl}/sites/<siteId>/`; a site with a custom `hostname` is served
 * at the root of that host (same scheme and port as the public URL), which
 * is then its canonical address. Inside a site, the default section and the
 * default site space of a section have no path segment:
 * `<base>[<sectionPath>/][<siteSpacePath>/]<pagePath>`.
 */

/** Path prefix of sites served by id. */
export const SITES_PREFIX = '/sites/';

/** The canonical base URL of a site, ending with '/'. */
export function siteBaseUrl(ctx: AppContext, site: { id: string; hostname: string | null }): string {
  if (site.hostname) {
    const root = new URL(ctx.urls.root);
    return `${root.protocol}//${site.hostname}${root.port ? `:${root.port}` : ''}/`;
  }
  return `${ctx.urls.root}${SITES_PREFIX}${site.id}/`;
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
