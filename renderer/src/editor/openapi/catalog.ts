import { Facet } from '@codemirror/state';
import type { ApiClient } from '../../api/client';
import { getSpec, getVersionContent, listSpecs, type SpecContent } from '../../openapi/openapi-api';
import { operationSummary } from './operation-summary';

/**
 * What the editor knows of the organization's OpenAPI specs: their slugs (for the spec picker)
 * and operation summaries (for API operation cards). Reads are synchronous and answer from a
 * cache (undefined while unknown): decorations are built on every keystroke and must never wait
 * on the network. A miss starts one fetch; when it lands, subscribers redraw.
 */
export interface OpenApiCatalog {
  /** The organization's spec slugs; undefined until the list has loaded. */
  specSlugs(): readonly string[] | undefined;
  /** The organization's spec slugs, loading them if needed (for the picker, which may wait). */
  loadSpecSlugs(): Promise<readonly string[]>;
  /** The summary of `method path` in the spec `slug`'s latest version; undefined while unknown or absent. */
  summary(slug: string, path: string, method: string): string | undefined;
  /** Calls `listener` whenever something new is known; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/** The catalog the editor reads (none: cards show what the markdown says, the picker offers placeholders). */
export const openApiCatalogFacet = Facet.define<OpenApiCatalog, OpenApiCatalog | undefined>({
  combine: (values) => values[0],
});

/** How long a loaded spec is trusted before its latest version is asked for again (a new version may have landed). */
const SPEC_TTL_MS = 60_000;

interface SpecEntry {
  /** The version the content below is of; content is cached per version. */
  version?: string;
  content?: SpecContent;
  loadedAt: number;
  loading: boolean;
}

/** A catalog over the API for organization `orgId`. */
export function createOpenApiCatalog(api: ApiClient, orgId: string, now: () => number = Date.now): OpenApiCatalog {
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  let slugs: string[] | undefined;
  let slugsLoading: Promise<readonly string[]> | undefined;
  const loadSlugs = (): Promise<readonly string[]> =>
    (slugsLoading ??= listSpecs(api, orgId)
      .then((list) => (slugs = list.map((s) => s.slug)))
      .catch(() => (slugs = []))
      .finally(() => notify()));
  const specs = new Map<string, SpecEntry>();
  const contents = new Map<string, SpecContent>(); // by version id

  const loadSpec = async (slug: string, entry: SpecEntry) => {
    entry.loading = true;
    try {
      const spec = await getSpec(api, orgId, slug);
      const version = spec.lastVersion;
      if (version && version !== entry.version) {
        const content = contents.get(version) ?? (await getVersionContent(api, orgId, slug, version));
        contents.set(version, content);
        entry.version = version;
        entry.content = content;
      }
    } catch {
      // An unknown spec or no access: the card shows no summary (the markdown is still what it is).
    } finally {
      entry.loadedAt = now();
      entry.loading = false;
      notify();
    }
  };

  return {
    specSlugs() {
      if (!slugs) void loadSlugs();
      return slugs;
    },
    loadSpecSlugs: () => (slugs ? Promise.resolve(slugs) : loadSlugs()),
    summary(slug, path, method) {
      if (!slug) return undefined;
      let entry = specs.get(slug);
      if (!entry) specs.set(slug, (entry = { loadedAt: -Infinity, loading: false }));
      if (!entry.loading && now() - entry.loadedAt > SPEC_TTL_MS) void loadSpec(slug, entry);
      return entry.content ? operationSummary(entry.content, path, method) : undefined;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The editor extension for organization `orgId`: pass it in the page editor's `extensions` so cards
 * show summaries and the spec picker lists the organization's specs. One catalog per organization
 * and client (its cache outlives the page: opening another page reuses what is known).
 */
const catalogs = new WeakMap<ApiClient, Map<string, OpenApiCatalog>>();
export function openApiCatalogExtension(api: ApiClient, orgId: string) {
  let byOrg = catalogs.get(api);
  if (!byOrg) catalogs.set(api, (byOrg = new Map()));
  let catalog = byOrg.get(orgId);
  if (!catalog) byOrg.set(orgId, (catalog = createOpenApiCatalog(api, orgId)));
  return openApiCatalogFacet.of(catalog);
}
