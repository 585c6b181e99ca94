import type { Queryable } from '../store/db';

/**
 * What content drawn from an organization's specs needs to know of each: its latest version (pages
 * showing it are keyed by it, so a new version shows at once) or why there is none.
 */
export interface SpecSummary {
  slug: string;
  sourceUrl: string | null;
  /** The latest version (null: none yet). */
  versionId: string | null;
  /** The last processing's error code (shown when there is no version to draw from). */
  errorCode: string | null;
  /** Whether the raw spec is published at its public URL. */
  public: boolean;
}

/** The specs of an organization (only the columns that change what pages show). */
export async function organizationSpecs(db: Queryable, organizationId: string): Promise<SpecSummary[]> {
  const rows = await db.query<{
    slug: string;
    source_url: string | null;
    last_version_id: string | null;
    last_error_code: string | null;
    visibility: string;
  }>(
    'SELECT slug, source_url, last_version_id, last_error_code, visibility FROM openapi_specs WHERE organization_id = $1 ORDER BY slug',
    [organizationId],
  );
  return rows.map((r) => ({
    slug: r.slug,
    sourceUrl: r.source_url,
    versionId: r.last_version_id,
    errorCode: r.last_error_code,
    public: r.visibility === 'public',
  }));
}
