import type { Queryable } from '../store/db';

/**
 * Where the published site's API reference blocks get their spec: the organization's specs, read
 * with the site's state (state.ts), whose signature they are part of: a new version of a spec
 * changes the keys of the rendered pages, so it shows at once, without editing the page. Kept
 * apart from the rendering (openapi-blocks.ts), which loads with the site's rendering, not at boot.
 */

/** What a page needs to know of one spec of the organization. */
export interface SpecSummary {
  slug: string;
  sourceUrl: string | null;
  /** The latest version (null: none yet). */
  versionId: string | null;
  /** The last processing's error code (shown when there is no version to draw from). */
  errorCode: string | null;
}

/** The organization's specs and the database to read their versions from. */
export interface OpenApiSource {
  db: Queryable;
  specs: SpecSummary[];
}

/** The specs of an organization, for the site's state (only the columns that change what pages show). */
export async function organizationSpecs(db: Queryable, organizationId: string): Promise<SpecSummary[]> {
  const rows = await db.query<{
    slug: string;
    source_url: string | null;
    last_version_id: string | null;
    last_error_code: string | null;
  }>(
    'SELECT slug, source_url, last_version_id, last_error_code FROM openapi_specs WHERE organization_id = $1 ORDER BY slug',
    [organizationId],
  );
  return rows.map((r) => ({
    slug: r.slug,
    sourceUrl: r.source_url,
    versionId: r.last_version_id,
    errorCode: r.last_error_code,
  }));
}
