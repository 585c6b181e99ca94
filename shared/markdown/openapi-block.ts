import { fenceTracker, liquidAttributes } from './liquid-tags';

/**
 * GitBook's OpenAPI operation blocks in markdown, as its Git Sync writes them:
 * - `{% openapi-operation spec="<slug>" path="/pets" method="get" %}` … `{% endopenapi-operation %}`
 *   (the current form: the spec is one of the organization's specs, by slug);
 * - `{% openapi src="<url>" path="/pets" method="get" %}` … `{% endopenapi %}` and the older
 *   `{% swagger src="<url>" path="/pets" method="get" %}` … `{% endswagger %}` (they name the
 *   spec's URL; the site matches it to the organization's spec with that source URL).
 * What stands between the tags (a link to the spec, or the old form's `{% swagger-description %}`
 * sections) is GitBook's fallback text: the block is drawn from the spec, so it is part of the block.
 * One grammar for the published site and the `document` conversion.
 */

/** Which operation a block shows, and in which spec. */
export interface OpenApiBlockRef {
  /** The tag's form. */
  form: 'openapi-operation' | 'openapi' | 'swagger';
  /** The spec's slug (`openapi-operation`). */
  spec?: string;
  /** The spec's URL (`openapi`, `swagger`). */
  src?: string;
  path: string;
  /** Lowercase HTTP method. */
  method: string;
}

/** A block found in markdown: its reference and the lines it spans (0-based, end exclusive). */
export interface OpenApiBlock extends OpenApiBlockRef {
  startLine: number;
  endLine: number;
}

const OPEN = /^[ \t]*\{%-?\s*(openapi-operation|openapi|swagger)(?![\w-])([^%]*)-?%\}[ \t]*$/;
const CLOSE = /^[ \t]*\{%-?\s*end(openapi-operation|openapi|swagger)(?![\w-])\s*-?%\}[ \t]*$/;

/** Whether the text may hold a block (a cheap test before any work). */
export function mayHoldOpenApiBlock(markdown: string): boolean {
  return markdown.includes('{%') && /\{%-?\s*(?:openapi|swagger)/.test(markdown);
}

/** The reference an opening tag line holds, if the line is one. */
export function parseOpenApiTagLine(line: string): OpenApiBlockRef | undefined {
  const m = OPEN.exec(line);
  if (!m) return undefined;
  const form = m[1] as OpenApiBlockRef['form'];
  const attrs = liquidAttributes(m[2] ?? '');
  const ref: OpenApiBlockRef = { form, path: attrs.path ?? '', method: (attrs.method ?? '').toLowerCase() };
  if (form === 'openapi-operation') ref.spec = attrs.spec ?? '';
  else ref.src = attrs.src ?? '';
  return ref;
}

/**
 * The blocks of a page's markdown, outside code fences. A block ends at its end tag; an opening
 * tag without one is a block of its own line (GitBook's editor writes the end tag, hand-written
 * pages may not).
 */
export function findOpenApiBlocks(markdown: string): OpenApiBlock[] {
  if (!mayHoldOpenApiBlock(markdown)) return [];
  const lines = markdown.split('\n');
  const blocks: OpenApiBlock[] = [];
  const where = fenceTracker();
  let open: { ref: OpenApiBlockRef; line: number } | undefined;
  const close = (endLine: number) => {
    if (open) blocks.push({ ...open.ref, startLine: open.line, endLine });
    open = undefined;
  };
  lines.forEach((line, i) => {
    if (where(line) !== 'prose') return;
    const ref = parseOpenApiTagLine(line);
    if (ref) {
      close(open ? open.line + 1 : i); // an unclosed block before: its opening line only
      open = { ref, line: i };
      return;
    }
    const end = CLOSE.exec(line);
    if (end && open && end[1] === open.ref.form) close(i + 1);
  });
  if (open) close(open.line + 1);
  return blocks;
}

/**
 * The markdown with each block replaced by a line `marker(i)` (i: the block's index in
 * findOpenApiBlocks), blank lines around it so it is a paragraph of its own.
 */
export function replaceOpenApiBlocks(
  markdown: string,
  marker: (index: number) => string,
): { markdown: string; blocks: OpenApiBlock[] } {
  const blocks = findOpenApiBlocks(markdown);
  if (blocks.length === 0) return { markdown, blocks };
  const lines = markdown.split('\n');
  const out: string[] = [];
  let at = 0;
  blocks.forEach((b, i) => {
    out.push(...lines.slice(at, b.startLine), '', marker(i), '');
    at = b.endLine;
  });
  out.push(...lines.slice(at));
  return { markdown: out.join('\n'), blocks };
}
