import type { OpenApiBlockRef } from '../../shared/markdown/openapi-block';
import { Lru } from '../store/lru';
import { bundleOf } from '../openapi-specs/bundles';
import { operationModel, type JsonObject } from './openapi-model';
import { operationCode, renderNotice, renderOperation } from './openapi-render';
import type { OpenApiSource, SpecSummary } from './openapi-source';

/**
 * The HTML of API reference blocks from the latest version of their spec. Versions are immutable,
 * so a version's parsed bundle and each operation's HTML are cached by version id with no
 * invalidation: a new version has a new id (and the pages showing it new keys, see state.ts).
 */

const operations = new Lru<string, string>(2_000, { maxWeight: 32 * 1024 * 1024, weigh: (html) => html.length });

/** The spec a block names: by slug (`openapi-operation`) or by source URL (the older forms). */
function specFor(source: OpenApiSource | undefined, ref: OpenApiBlockRef): SpecSummary | undefined {
  const specs = source?.specs ?? [];
  if (ref.spec !== undefined) return specs.find((s) => s.slug === ref.spec);
  const url = (ref.src ?? '').trim();
  const bare = (u: string) => u.replace(/\/+$/, '');
  return url ? specs.find((s) => s.sourceUrl !== null && bare(s.sourceUrl) === bare(url)) : undefined;
}

/**
 * Highlights code as the page's code blocks are (markdown fences through the parse pool, whose
 * highlighter is loaded there: the server's main thread never loads one), or undefined.
 */
export type Highlighter = (lang: string, code: string) => Promise<string | undefined>;

/** A fence around `code` that no backtick run in it closes. */
export function fenced(lang: string, code: string): string {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${code}\n${fence}\n`;
}

async function drawn(doc: JsonObject, op: NonNullable<ReturnType<typeof operationModel>>, highlight?: Highlighter) {
  const code = new Map<string, string>();
  if (highlight)
    await Promise.all(
      operationCode(doc, op).map(async ([lang, text]) => {
        const html = await highlight(lang, text).catch(() => undefined);
        if (html) code.set(`${lang}\n${text}`, html);
      }),
    );
  return renderOperation(doc, op, (lang, text) => code.get(`${lang}\n${text}`));
}

/** The HTML of one block: the operation from the spec's latest version, or a notice saying why not. */
export async function openApiBlockHtml(
  source: OpenApiSource | undefined,
  ref: OpenApiBlockRef,
  highlight?: Highlighter,
): Promise<string> {
  const spec = specFor(source, ref);
  const name = ref.spec ?? ref.src ?? '';
  if (!spec)
    return renderNotice(
      'OpenAPI spec not found',
      ref.spec !== undefined
        ? `This block shows an operation of the OpenAPI spec “${name}”, which this organization does not have.`
        : `This block shows an operation of the OpenAPI spec at ${name || '(no address)'}, and no OpenAPI spec of this organization comes from there.`,
    );
  if (!spec.versionId)
    return spec.errorCode
      ? renderNotice(
          'OpenAPI spec not available',
          `The OpenAPI spec “${spec.slug}” could not be processed (${spec.errorCode}); this operation shows once it is.`,
        )
      : renderNotice(
          'OpenAPI spec not processed yet',
          `The OpenAPI spec “${spec.slug}” is still being processed; this operation shows once it is ready.`,
        );
  const key = `${spec.versionId}\n${ref.method}\n${ref.path}`;
  const cached = operations.get(key);
  if (cached !== undefined) return cached;
  let html: string;
  try {
    const doc = await bundleOf(source!.db, spec.versionId);
    const op = doc && ref.path && ref.method ? operationModel(doc, ref.path, ref.method) : undefined;
    html = op
      ? await drawn(doc!, op, highlight)
      : renderNotice(
          'Operation not found',
          `The OpenAPI spec “${spec.slug}” has no ${ref.method.toUpperCase() || '(no method)'} ${ref.path || '(no path)'} operation.`,
        );
  } catch {
    // A spec this renderer cannot read: the page still shows, with a notice (not cached: maybe transient).
    return renderNotice(
      'Operation not available',
      `This operation of the OpenAPI spec “${spec.slug}” cannot be shown.`,
    );
  }
  operations.set(key, html);
  return html;
}
