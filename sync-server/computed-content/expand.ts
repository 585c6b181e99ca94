import { createHash } from 'node:crypto';
import { readComputedSource, sourceSpecSlug, type ComputedOpenApiSource } from '../../shared/doc/computed';
import { presentPage } from '../../shared/doc/present';
import type { PageData } from '../../shared/doc/types';
import type { RevisionRecord, StoredPage } from '../docs/revision-store';
import type { Queryable } from '../store/db';
import { bundleOf } from '../openapi-specs/bundles';
import { specOutline } from '../openapi-specs/outline';
import type { SpecSummary } from '../openapi-specs/summaries';
import { openApiPages } from './openapi-pages';
import { generatedTree } from './generated-tree';

/**
 * Content reads see computed pages expanded: a revision stores a computed page as its source
 * (RevisionPageComputed); reading it with `computed=true` (GitBook's default) replaces it by the
 * pages it generates from the latest version of its spec — the overview in the computed page's place
 * (same id, title, slug and path) and the generated pages below it. The stored revision never
 * changes: an expansion is a view of it for one set of spec versions, cached on the revision object
 * and keyed by those versions, so a new spec version shows at the next read without a new revision.
 */

/** What an expansion draws from: the organization's specs (with their latest versions). */
export interface ExpandSources {
  db: Queryable;
  specs: readonly SpecSummary[];
  /** The public URL of a spec's raw content (for `props.downloadLink`). */
  specUrl?: (slug: string) => string;
}

const computedPresence = new WeakMap<RevisionRecord, boolean>();
const expansions = new WeakMap<RevisionRecord, { key: string; record: RevisionRecord }>();
const variants = new WeakMap<RevisionRecord, string>();

function anyComputed(pages: readonly StoredPage[]): boolean {
  return pages.some((p) => p.type === 'computed' || anyComputed(p.pages ?? []));
}

/** Whether the revision holds computed pages (so reads must expand it). */
export function hasComputedPages(record: RevisionRecord): boolean {
  let has = computedPresence.get(record);
  if (has === undefined) computedPresence.set(record, (has = anyComputed(record.pages)));
  return has;
}

/**
 * The key to cache what is made from `record` under: its id, plus the spec versions it was
 * expanded with when it is an expansion (same id, other content).
 */
export function revisionCacheKey(record: RevisionRecord): string {
  const variant = variants.get(record);
  return variant ? `${record.id}~${variant}` : record.id;
}

const notice = (text: string) => `{% hint style="warning" %}\n${text}\n{% endhint %}\n`;

/** The stored computed page as page data, with the markdown its expansion shows. */
function pageData(page: StoredPage, markdown: string): PageData {
  const data: PageData = {
    id: page.id,
    kind: 'document',
    title: typeof page.title === 'string' ? page.title : '',
    slug: typeof page.slug === 'string' ? page.slug : '',
    parent: null,
    index: '',
    hidden: page.hidden === true,
    noIndex: false,
    layout: {},
    markdown,
  };
  for (const key of ['emoji', 'icon', 'createdAt', 'updatedAt', 'condition'] as const)
    if (typeof page[key] === 'string') data[key] = page[key];
  return data;
}

/** What a computed page expands to: its overview with the generated pages, or a notice saying why not. */
async function expandPage(page: StoredPage, sources: ExpandSources): Promise<StoredPage> {
  const source = readComputedSource(page.computed) as ComputedOpenApiSource | undefined;
  const path = typeof page.path === 'string' ? page.path : String(page.slug ?? '');
  const slugOf = source && sourceSpecSlug(source);
  const spec = slugOf === undefined ? undefined : sources.specs.find((s) => s.slug === slugOf);
  const asDocument = (markdown: string, children: StoredPage[] = []) =>
    presentPage(pageData(page, markdown), String(page.slug ?? ''), path, children as never) as unknown as StoredPage;
  if (!source) return asDocument(notice('This page is generated from a source Folio cannot read.'));
  if (!spec)
    return asDocument(
      notice(`This page is generated from the OpenAPI spec “${slugOf}”, which this organization does not have.`),
    );
  if (!spec.versionId)
    return asDocument(
      notice(
        spec.errorCode
          ? `The OpenAPI spec “${spec.slug}” could not be processed (${spec.errorCode}); its pages show once it is.`
          : `The OpenAPI spec “${spec.slug}” is still being processed; its pages show once it is ready.`,
      ),
    );
  const bundle = await bundleOf(sources.db, spec.versionId).catch(() => undefined);
  if (!bundle) return asDocument(notice(`The OpenAPI spec “${spec.slug}” cannot be read.`));
  const generated = openApiPages({
    source,
    seed: page.id,
    outline: specOutline(bundle),
    ...(spec.public && sources.specUrl ? { downloadUrl: sources.specUrl(spec.slug) } : {}),
  });
  const at = pageData(page, '');
  return asDocument(
    generated.overview,
    generated.pages.map((p) => generatedTree(p, path, at)),
  );
}

async function expandPages(pages: readonly StoredPage[], sources: ExpandSources): Promise<StoredPage[]> {
  return Promise.all(
    pages.map(async (p) => {
      if (p.type === 'computed') return expandPage(p, sources);
      if (!p.pages?.length || !anyComputed(p.pages)) return p;
      // An ancestor of a computed page: a copy with its children expanded (the stored object is shared and frozen).
      return { ...p, pages: await expandPages(p.pages, sources) };
    }),
  );
}

/** The key of the spec state an expansion of `record` depends on. */
function dependencyKey(sources: ExpandSources): string {
  const specs = sources.specs.map((s) => [s.slug, s.versionId, s.errorCode, s.public]);
  return JSON.stringify([specs, sources.specUrl?.('~')]);
}

/**
 * `record` with its computed pages expanded (itself when it has none). The result has the same
 * id, files and metadata; use revisionCacheKey to cache what is made from it.
 */
export async function expandRevision(record: RevisionRecord, sources: ExpandSources): Promise<RevisionRecord> {
  if (!hasComputedPages(record)) return record;
  const key = dependencyKey(sources);
  const hit = expansions.get(record);
  if (hit && hit.key === key) return hit.record;
  const expanded: RevisionRecord = { ...record, pages: await expandPages(record.pages, sources) };
  variants.set(expanded, createHash('sha256').update(key).digest('base64url').slice(0, 16));
  computedPresence.set(expanded, false);
  expansions.set(record, { key, record: expanded });
  return expanded;
}
