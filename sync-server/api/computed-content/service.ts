import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { ApiError, badRequest, notFound } from '../../http/errors';
import { readComputedSource, sourceSpecSlug, type ComputedOpenApiSource } from '../../../shared/doc/computed';
import type { StoredPage } from '../../docs/revision-store';
import { bundleOf } from '../../openapi-specs/bundles';
import { specOutline } from '../../openapi-specs/outline';
import { documentMarkdown, openApiPages, type DocumentProps } from '../../computed-content/openapi-pages';
import { generatedTree } from '../../computed-content/generated-tree';
import { expandSources } from '../content/computed';
import { requireSpace } from '../spaces/service';

/**
 * GitBook's getComputedRevision and getComputedDocument: what a computed source generates, without
 * storing anything — the pages a computed page of this space would expand to, or one of their
 * documents. Folio computes `builtin:openapi` sources (from the organization's specs).
 */

interface Body {
  source: { type: string; dependencies?: object; props?: object };
  seed: string;
}

const SUPPORTED = 'Folio computes "builtin:openapi" sources';

/** The spec the source names, checked: its latest version's outline and where it is published. */
async function specFor(ctx: AppContext, p: Principal, spaceId: string, source: ComputedOpenApiSource) {
  const { row } = await requireSpace(ctx, p, spaceId);
  const sources = await expandSources(ctx, row.organization_id);
  const slug = sourceSpecSlug(source);
  const spec = sources.specs.find((s) => s.slug === slug);
  if (!spec) throw notFound('OpenAPI spec');
  if (!spec.versionId)
    throw new ApiError(
      409,
      spec.errorCode
        ? `The OpenAPI spec "${slug}" could not be processed (${spec.errorCode}): fix its source, then try again`
        : `The OpenAPI spec "${slug}" is still being processed: try again when its processingState is "complete"`,
    );
  const bundle = await bundleOf(ctx.db, spec.versionId);
  if (!bundle) throw notFound('OpenAPI spec version');
  return {
    outline: specOutline(bundle),
    downloadUrl: spec.public ? sources.specUrl!(slug) : undefined,
    appBase: ctx.urls.app(`/s/${spaceId}`),
  };
}

function checkedSource(raw: Body['source']): ComputedOpenApiSource {
  if (raw.type !== 'builtin:openapi') throw badRequest(`source.type "${raw.type}" is not supported: ${SUPPORTED}`);
  const source = readComputedSource(raw);
  if (!source)
    throw badRequest('source.dependencies.spec.ref must be {"kind": "openapi", "spec": "<slug of an OpenAPI spec>"}');
  return source;
}

/** Generated pages as GitBook's RevisionPageDocument, with `urls.app` (paths from the root of the generation). */
function withUrls(page: StoredPage, appBase: string): object {
  return {
    ...page,
    urls: { app: `${appBase}/${String(page.path)}` },
    pages: (page.pages ?? []).map((c) => withUrls(c, appBase)),
  };
}

/** getComputedRevision: the pages (and, for OpenAPI sources, no files or reusable contents) a source generates. */
export async function computedRevision(ctx: AppContext, p: Principal, spaceId: string, body: Body) {
  const source = checkedSource(body.source);
  const spec = await specFor(ctx, p, spaceId, source);
  const generated = openApiPages({ source, seed: body.seed, outline: spec.outline, downloadUrl: spec.downloadUrl });
  return {
    pages: generated.pages.map((page) => withUrls(generatedTree(page, ''), spec.appBase)),
    files: [],
    reusableContents: [],
  };
}

function documentProps(props: object | undefined): DocumentProps {
  const raw = (props ?? {}) as Record<string, unknown>;
  const page = typeof raw.page === 'string' && raw.page !== '' ? raw.page : undefined;
  switch (raw.doc) {
    case 'models':
      return { doc: 'models' };
    case 'info':
    case 'operations':
    case 'tag':
      if (!page) throw badRequest(`source.props.page is required for doc "${raw.doc}" (a tag's name)`);
      return { doc: raw.doc, page };
    case 'operation': {
      const method = typeof raw.method === 'string' ? raw.method.toLowerCase() : '';
      if (!page) throw badRequest('source.props.page is required for doc "operation" (the operation\'s path)');
      if (!['get', 'post', 'put', 'delete', 'patch', 'options', 'head', 'trace'].includes(method))
        throw badRequest(
          'source.props.method must be an HTTP method (get, post, put, delete, patch, options, head, trace)',
        );
      return { doc: 'operation', page, method };
    }
    default:
      throw badRequest('source.props.doc must be one of "models", "info", "operations", "tag", "operation"');
  }
}

/** getComputedDocument: one generated document (GitBook's JSON document form). */
export async function computedDocument(ctx: AppContext, p: Principal, spaceId: string, body: Body) {
  const source = checkedSource(body.source);
  const props = documentProps(body.source.props);
  const spec = await specFor(ctx, p, spaceId, source);
  const markdown = documentMarkdown(
    { source, seed: body.seed, outline: spec.outline, downloadUrl: spec.downloadUrl },
    props,
  );
  if (markdown === undefined) throw notFound(props.doc === 'operation' ? 'Operation' : 'Tag');
  return ctx.markdown.document(markdown);
}
