import type { Element, ElementContent, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { h } from 'hastscript';
import { sample } from 'openapi-sampler';
import { curlSample } from './openapi-curl';
import { descriptionHast } from './openapi-description';
import { type Json, type JsonObject, type MediaModel, type OperationModel, type ParameterModel } from './openapi-model';
import { schemaTree, typeLabel } from './openapi-schema';

/**
 * One operation as the HTML of an API reference block on the published site, in the manner of
 * GitBook's and Redoc's: method badge and path, summary and description, servers, a copyable curl
 * sample (a plain `<pre>`: the site script gives every code block its copy button), parameters by
 * place, the request body and each response as schema trees with an example (the spec's, else one
 * generated from the schema by openapi-sampler). No script and no inline style: collapsing is
 * `<details>`, so the site's CSP stays as it is. Built as hast and serialized by
 * hast-util-to-html, so every spec string is escaped; descriptions go through the sanitizer.
 */

/** Longest example shown (characters of JSON): a huge generated sample helps nobody. */
const MAX_EXAMPLE = 12_000;

const PLACES: [ParameterModel['in'], string][] = [
  ['path', 'Path parameters'],
  ['query', 'Query parameters'],
  ['header', 'Header parameters'],
  ['cookie', 'Cookie parameters'],
];

/**
 * The HTML of a highlighted code block (`<pre>…</pre>`, made by the page pipeline, so sanitized),
 * or undefined: then the block is plain.
 */
export type HighlightedCode = (lang: string, text: string) => string | undefined;

/** Set while an operation is rendered (renderOperation). */
let highlighted: HighlightedCode = () => undefined;

function codeBlock(lang: string, text: string, label: string): Element {
  const html = highlighted(lang, text);
  const pre: ElementContent = html
    ? ({ type: 'raw', value: html } as unknown as ElementContent)
    : h('pre', [h('code', { className: [`language-${lang}`] }, text)]);
  return h('div.oa-code', [h('p.oa-code-title', label), pre]);
}

function exampleOf(root: JsonObject, media: MediaModel, direction: 'request' | 'response'): Json | undefined {
  if (media.example !== undefined) return media.example;
  if (!media.schema) return undefined;
  try {
    const options = { skipReadOnly: direction === 'request', skipWriteOnly: direction === 'response', quiet: true };
    return sample({ ...media.schema } as never, { ...options, maxSampleDepth: 6 }, root) as Json;
  } catch {
    // A schema the sampler cannot follow: the tree is still there.
    return undefined;
  }
}

function exampleText(value: Json): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return text.length > MAX_EXAMPLE ? `${text.slice(0, MAX_EXAMPLE)}\n…` : text;
}

function section(title: string, content: ElementContent[]): Element {
  return h('section.oa-section', [h('p.oa-section-title', title), ...content]);
}

function parameterRow(root: JsonObject, p: ParameterModel): Element {
  return h('li.oa-field', [
    h('div.oa-field-head', [
      h('code.oa-field-name', p.name),
      h('span.oa-field-type', typeLabel(root, p.schema)),
      ...(p.required ? [h('span.oa-required', 'required')] : []),
      ...(p.deprecated ? [h('span.oa-deprecated', 'deprecated')] : []),
    ]),
    ...(p.description ? [h('div.oa-field-desc', descriptionHast(p.description))] : []),
    ...(p.schema && Array.isArray(p.schema.enum)
      ? [
          h('p.oa-fact', [
            h('span.oa-fact-label', 'Possible values: '),
            ...p.schema.enum.slice(0, 50).map((v) => h('code', typeof v === 'string' ? v : JSON.stringify(v))),
          ]),
        ]
      : []),
    ...(p.schema?.default !== undefined
      ? [h('p.oa-fact', [h('span.oa-fact-label', 'Default: '), h('code', JSON.stringify(p.schema.default))])]
      : []),
  ]);
}

function mediaBlock(root: JsonObject, media: MediaModel, direction: 'request' | 'response'): ElementContent[] {
  const out: ElementContent[] = [h('p.oa-media', [h('span.oa-fact-label', 'Content type: '), h('code', media.type)])];
  if (media.schema) out.push(schemaTree(root, media.schema));
  const example = exampleOf(root, media, direction);
  if (example !== undefined)
    out.push(codeBlock(/json/.test(media.type) ? 'json' : 'text', exampleText(example), 'Example'));
  return out;
}

function statusClass(status: string): string {
  const c = status[0];
  return c === '2' ? 'oa-ok' : c === '3' ? 'oa-redirect' : c === '4' || c === '5' ? 'oa-error' : 'oa-other';
}

/** The operation as a hast element (class `openapi-operation`). */
export function operationHast(root: JsonObject, op: OperationModel): Element {
  const parts: ElementContent[] = [];
  parts.push(
    h('div.oa-head', [
      h(`span.oa-method.oa-method-${op.method}`, op.method.toUpperCase()),
      h('code.oa-path', op.path),
      ...(op.deprecated ? [h('span.oa-deprecated', 'deprecated')] : []),
    ]),
  );
  if (op.summary) parts.push(h('p.oa-summary', op.summary));
  if (op.description) parts.push(h('div.oa-description', descriptionHast(op.description)));
  if (op.servers.length)
    parts.push(
      h('p.oa-servers', [
        h('span.oa-fact-label', op.servers.length > 1 ? 'Servers: ' : 'Server: '),
        ...op.servers.flatMap((s, i) => [
          ...(i ? [{ type: 'text', value: ', ' } as const] : []),
          h('code', s.url),
          ...(s.description ? [{ type: 'text', value: ` (${s.description})` } as const] : []),
        ]),
      ]),
    );
  const bodyMedia = op.requestBody?.content[0];
  const bodyExample = bodyMedia ? exampleOf(root, bodyMedia, 'request') : undefined;
  parts.push(codeBlock('bash', curlSample(op, bodyMedia && { type: bodyMedia.type, example: bodyExample }), 'Request'));
  if (op.security.length)
    parts.push(
      section('Authorizations', [
        h(
          'ul.oa-fields',
          op.security.map((s) =>
            h('li.oa-field', [
              h('div.oa-field-head', [
                h('code.oa-field-name', s.name),
                h('span.oa-field-type', `${s.in} · ${s.label}`),
                h('span.oa-required', 'required'),
              ]),
            ]),
          ),
        ),
      ]),
    );
  for (const [place, title] of PLACES) {
    const params = op.parameters.filter((p) => p.in === place);
    if (params.length)
      parts.push(
        section(title, [
          h(
            'ul.oa-fields',
            params.map((p) => parameterRow(root, p)),
          ),
        ]),
      );
  }
  if (op.requestBody) {
    const body: ElementContent[] = [];
    if (op.requestBody.description) body.push(h('div.oa-field-desc', descriptionHast(op.requestBody.description)));
    for (const media of op.requestBody.content) body.push(...mediaBlock(root, media, 'request'));
    parts.push(section(op.requestBody.required ? 'Body (required)' : 'Body', body));
  }
  if (op.responses.length) {
    const responses = op.responses.map((r, i) =>
      h(`details.oa-response.${statusClass(r.status)}`, { open: i === 0 }, [
        h('summary', [
          h('span.oa-status', r.status),
          ...(r.description ? [h('span.oa-response-desc', firstLine(r.description))] : []),
        ]),
        h('div.oa-response-body', [
          ...(r.description && r.description.includes('\n')
            ? [h('div.oa-field-desc', descriptionHast(r.description))]
            : []),
          ...(r.headers.length
            ? [
                h('p.oa-fact', 'Headers'),
                h(
                  'ul.oa-fields',
                  r.headers.map((p) => parameterRow(root, p)),
                ),
              ]
            : []),
          ...r.content.flatMap((m) => mediaBlock(root, m, 'response')),
          ...(r.content.length === 0 && r.headers.length === 0 ? [h('p.oa-fact', 'No content.')] : []),
        ]),
      ]),
    );
    parts.push(section('Responses', responses));
  }
  return h('div.openapi-operation', { dataMethod: op.method, dataPath: op.path }, parts);
}

function firstLine(text: string): string {
  return text
    .split('\n')[0]!
    .replace(/[*_`#]/g, '')
    .trim();
}

/** The operation's HTML; its code blocks as `code` gives them (plain without it). */
export function renderOperation(root: JsonObject, op: OperationModel, code?: HighlightedCode): string {
  highlighted = code ?? (() => undefined);
  try {
    const tree: Root = { type: 'root', children: [operationHast(root, op)] };
    // Raw nodes are only the highlighted code blocks given by `code`.
    return toHtml(tree, { allowDangerousHtml: true });
  } finally {
    highlighted = () => undefined;
  }
}

/** The code blocks an operation shows ([lang, text]), to highlight them before rendering it. */
export function operationCode(root: JsonObject, op: OperationModel): [string, string][] {
  const wanted: [string, string][] = [];
  renderOperation(root, op, (lang, text) => void wanted.push([lang, text]));
  return wanted;
}

/** A notice box in place of a block that cannot be drawn (unknown spec, operation, not yet processed). */
export function renderNotice(title: string, text: string): string {
  return toHtml(h('div.openapi-operation.oa-notice', { role: 'note' }, [h('p.oa-notice-title', title), h('p', text)]));
}
