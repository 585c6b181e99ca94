import { queryOne, type Queryable } from './db';

/**
 * The site-customization repository: one JSON document per site, as its owner
 * set it (GitBook's SiteCustomizationSettings, without defaults). What the
 * fields mean lives in `sites/customization.ts`.
 */

/** A `site_customizations` row. */
export interface SiteCustomizationRow {
  settings: Record<string, unknown>;
  updated_at: Date;
}

/** The stored customization of a site, if it was ever set. */
export function findSiteCustomization(db: Queryable, siteId: string): Promise<SiteCustomizationRow | undefined> {
  return queryOne<SiteCustomizationRow>(db, 'SELECT settings, updated_at FROM site_customizations WHERE site_id = $1', [
    siteId,
  ]);
}

/** Replaces the stored customization of a site. */
export async function saveSiteCustomization(
  db: Queryable,
  siteId: string,
  settings: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO site_customizations (site_id, settings, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (site_id) DO UPDATE SET settings = EXCLUDED.settings, updated_at = EXCLUDED.updated_at`,
    [siteId, JSON.stringify(settings), now],
  );
}
