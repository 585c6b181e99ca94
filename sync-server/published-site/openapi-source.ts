import type { Queryable } from '../store/db';
import type { SpecSummary } from '../openapi-specs/summaries';

/**
 * Where the published site's API reference blocks get their spec: the organization's specs, read
 * with the site's state (state.ts), whose signature they are part of: a new version of a spec
 * changes the keys of the rendered pages, so it shows at once, without editing the page. Kept
 * apart from the rendering (openapi-blocks.ts), which loads with the site's rendering, not at boot.
 */

export { organizationSpecs, type SpecSummary } from '../openapi-specs/summaries';

/** The organization's specs and the database to read their versions from. */
export interface OpenApiSource {
  db: Queryable;
  specs: SpecSummary[];
}
