import { openApiSource, sourceSpecSlug, type ComputedSource, type OpenApiGrouping } from '../../../shared/doc/computed';

/**
 * What the app shows of a computed page, as pure functions (test/unit/computed-page-preview.test.ts):
 * the settings a writer edits and the source they make, the generated pages of the preview as a
 * list to draw, and what an answer of the server that is not pages means to a writer.
 */

/** The settings of an API reference page, as its form edits them. */
export interface ApiReferenceSettings {
  /** The slug of the organization's spec ('' while none is chosen). */
  spec: string;
  grouping: OpenApiGrouping;
  models: boolean;
}

/** The layouts a writer can choose, in the order the form offers them. */
export const GROUPINGS: readonly { value: OpenApiGrouping; label: string; hint: string }[] = [
  { value: 'by-tag', label: 'A page per tag', hint: 'Each tag’s operations together on one page.' },
  {
    value: 'by-operation',
    label: 'A page per operation',
    hint: 'A page per tag listing its operations, each on a page of its own.',
  },
];

export const groupingLabel = (grouping: OpenApiGrouping): string =>
  GROUPINGS.find((g) => g.value === grouping)?.label ?? grouping;

/** The settings a source holds (a source without grouping lays pages out by tag, as the server does). */
export function settingsOf(source: ComputedSource): ApiReferenceSettings {
  return { spec: sourceSpecSlug(source), grouping: source.props.grouping ?? 'by-tag', models: source.props.models };
}

/**
 * The source to store for `settings`. Props the form does not edit (GitBook's `downloadLink`) are
 * kept from `previous`, so changing the layout does not drop what an API client set.
 */
export function sourceOf(settings: ApiReferenceSettings, previous?: ComputedSource): ComputedSource {
  const downloadLink = previous?.props.downloadLink;
  return openApiSource(settings.spec, {
    models: settings.models,
    grouping: settings.grouping,
    ...(downloadLink !== undefined ? { downloadLink } : {}),
  });
}

/** A generated page as getComputedRevision answers it: the fields the preview reads. */
export interface GeneratedPage {
  id: string;
  title: string;
  path?: string;
  description?: string;
  markdown?: string;
  pages?: readonly GeneratedPage[];
}

/** One line of the preview. */
export interface PreviewEntry {
  id: string;
  title: string;
  description?: string;
  /** The API operations the page and the pages under it show. */
  operations: number;
  children: PreviewEntry[];
}

/**
 * An operation is drawn by GitBook's block (`{% openapi-operation … %}`): counting the blocks of a
 * page's markdown counts its operations, whichever layout made it.
 */
const OPERATION_BLOCK = /\{%-?\s*openapi-operation\b/g;

export function previewEntries(pages: readonly GeneratedPage[]): PreviewEntry[] {
  return pages.map((page) => {
    const children = previewEntries(page.pages ?? []);
    const own = page.markdown?.match(OPERATION_BLOCK)?.length ?? 0;
    return {
      id: page.id,
      title: page.title,
      ...(page.description ? { description: page.description } : {}),
      operations: own + children.reduce((sum, c) => sum + c.operations, 0),
      children,
    };
  });
}

/** "1 operation", "3 operations"; '' for a page without any (the models). */
export function operationsLabel(count: number): string {
  return count === 0 ? '' : `${count} operation${count === 1 ? '' : 's'}`;
}

/** The preview's summary line: how many pages the source makes, and how many operations they show. */
export function previewSummary(entries: readonly PreviewEntry[]): string {
  const pages = entries.reduce((sum, e) => sum + 1 + e.children.length, 0);
  const operations = entries.reduce((sum, e) => sum + e.operations, 0);
  const pagesText = `${pages} page${pages === 1 ? '' : 's'}`;
  return operations ? `${pagesText} · ${operationsLabel(operations)}` : pagesText;
}

/** What the spec list says of the spec a source names (a subset of GitBook's OpenAPISpec). */
export interface SpecFacts {
  slug: string;
  processingState: 'pending' | 'progress' | 'complete';
  lastVersion?: string;
  lastProcessErrorCode?: string;
}

/**
 * Why no pages can be shown, when the server says so on purpose: the spec is missing (404), or has
 * no version yet (409) — still processing (worth asking again soon) or failed. Other failures
 * (offline, 5xx) are the ordinary "could not load" with Retry: undefined.
 */
export type PreviewProblem =
  { kind: 'missing'; message: string } | { kind: 'processing'; message: string } | { kind: 'failed'; message: string };

export function previewProblem(status: number | undefined, slug: string, spec?: SpecFacts): PreviewProblem | undefined {
  if (status === 404)
    return {
      kind: 'missing',
      message: `This organization has no OpenAPI spec “${slug}” (any more), so no pages are generated.`,
    };
  if (status !== 409) return undefined;
  if (spec?.lastProcessErrorCode && spec.processingState === 'complete')
    return {
      kind: 'failed',
      message: `The OpenAPI spec “${slug}” could not be processed (${spec.lastProcessErrorCode}), so it has no version to generate pages from. Fix its source on the spec’s screen.`,
    };
  return {
    kind: 'processing',
    message: `The OpenAPI spec “${slug}” is still being processed. Its pages show here once it is ready.`,
  };
}
