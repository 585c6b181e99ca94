import type { Queryable } from './db';

/**
 * The sites search engines may crawl: published, `public` visibility. What
 * the server's own robots.txt (published-site/root-robots.ts) names.
 */

/** A public site as robots.txt names it. */
export interface PublicSiteRow {
  id: string;
  hostname: string | null;
}

/** Published public sites, oldest first (a stable order: a new site never moves the others), at most `limit`. */
export function listPublicSites(db: Queryable, limit: number): Promise<PublicSiteRow[]> {
  return db.query<PublicSiteRow>(
    `SELECT id, hostname FROM sites WHERE published AND visibility = 'public' ORDER BY created_at, id LIMIT $1`,
    [limit],
  );
}
