import { encodeBody, type EncodedBody } from '../http/compression';
import type { Queryable } from '../store/db';
import { listPublicSites, type PublicSiteRow } from '../store/public-sites';
import { cachedRead } from '../store/read-cache';
import { SITES_PREFIX } from '../sites/urls';

/**
 * The robots.txt at the root of the server's own host (crawlers read only the
 * root; a site on its own hostname answers its own, see extras.ts):
 *
 * - the public sites are crawlable: `Allow: /sites/<id>/`, and their sitemap;
 * - everything else under /sites/ is not, by one `Disallow: /sites/` rather
 *   than a line per site: robots.txt is public, and naming an unlisted site
 *   there would publish the address its owner keeps to the people they send
 *   it to (share-link and visitor-auth sites, unpublished ones and sites made
 *   later are covered by the same line). Crawlers take the longest matching
 *   rule (RFC 9309 2.2.2), so `Allow: /sites/<id>/` wins over it;
 * - the web app, the API and sign-in are not documents: `/app/`, `/v1/`, `/auth/`.
 *
 * A public site with a custom hostname is allowed here too (its pages name their
 * canonical URL on that host), but its sitemap is not listed: that sitemap lists
 * URLs of the other host, which crawlers take only from that host's robots.txt.
 */

/**
 * Sites named at most. Google reads the first 500 KiB of a robots.txt; a site
 * costs ~100 bytes (its Allow and Sitemap lines), so 2,000 stay within ~200 kB.
 * Beyond that the oldest 2,000 are listed, the others are left to
 * `Disallow: /sites/` (their sitemaps can still be submitted to search engines
 * directly, or they can take a hostname of their own, whose robots.txt names them).
 */
export const ROBOTS_MAX_SITES = 2_000;

/** The text of the root robots.txt for these public sites. */
export function rootRobotsTxt(root: string, sites: readonly PublicSiteRow[]): string {
  const lines = [
    'User-agent: *',
    'Disallow: /app/',
    'Disallow: /v1/',
    'Disallow: /auth/',
    `Disallow: ${SITES_PREFIX}`,
    ...sites.map((s) => `Allow: ${SITES_PREFIX}${s.id}/`),
  ];
  const sitemaps = sites.filter((s) => !s.hostname).map((s) => `Sitemap: ${root}${SITES_PREFIX}${s.id}/sitemap.xml`);
  return `${lines.join('\n')}\n${sitemaps.length ? `\n${sitemaps.join('\n')}\n` : ''}`;
}

/** The last body made, to reuse its compressed forms while the text is unchanged (the read cache refills it often). */
let last: EncodedBody | undefined;

/**
 * The root robots.txt as bytes with their compressed forms, through the read
 * cache: a burst of crawler requests costs one query, and any write (a site
 * published, made public or private) shows at the next request.
 */
export function rootRobots(db: Queryable, root: string): Promise<EncodedBody> {
  return cachedRead(db, `published-robots:${root}`, async () => {
    const text = Buffer.from(rootRobotsTxt(root, await listPublicSites(db, ROBOTS_MAX_SITES)), 'utf8');
    if (last?.raw.equals(text)) return last;
    return (last = await encodeBody(text));
  });
}
