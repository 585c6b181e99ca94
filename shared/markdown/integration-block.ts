import { fenceTracker } from './liquid-tags';
/**
 * Integration blocks in markdown, as GitBook's Git Sync writes them:
 * - the tag form, one line: `{% @<integration>/<block> key="value" … %}` (no end tag);
 * - the code block form, for a block whose manifest maps a fence language to it
 *   (`markdown: {codeblock: 'mermaid', body: 'content'}`): a fence of that language whose text is
 *   the `body` prop, other props written after the language (```` ```mermaid theme="dark" ````).
 * The fence form needs the installed integrations' manifests to be told apart from a plain code
 * block, so it is only read where they are known (`CodeblockMapping`).
 *
 * Props: strings are written `key="value"` (`\\`, `\"`, `\n`, `\r`, `\t` escaped, so any string
 * survives on one line, and `%}` as `%\}` so no tag reader takes it for the tag's end); other JSON values unquoted (`count=3`, `open=true`, `cols=["a","b"]`)
 * with `%` inside their strings escaped as `\u0025` so no value can close the tag. Parsing reads
 * both back, so a document's props survive markdown and back exactly.
 */

/** A block's identity and props (GitBook's DocumentBlockIntegration `data`). */
export interface IntegrationBlockRef {
  /** The integration's name. */
  integration: string;
  /** The block's id in the integration's manifest. */
  block: string;
  props: Record<string, unknown>;
}

/** A tag found in markdown, with the line it stands on (0-based). */
export interface IntegrationTagBlock extends IntegrationBlockRef {
  line: number;
}

/** A manifest's `markdown` mapping of one block, with the block it maps to. */
export interface CodeblockMapping {
  integration: string;
  block: string;
  /** The fence language. */
  codeblock: string;
  /** The prop that receives the fence's text. */
  body: string;
}

const HEAD = /^[ \t]*\{%-?[ \t]*@([a-z0-9][\w.-]*)\/([\w][\w.-]*)/i;

/** Whether the text may hold a tag (a cheap test before any work). */
export function mayHoldIntegrationTag(markdown: string): boolean {
  return markdown.includes('{%') && /\{%-?\s*@/.test(markdown);
}

/** Reads `key=value …` from `text` at `at`; the props and where reading stopped, or undefined on a malformed value. */
export function parseProps(text: string, at = 0): { props: Record<string, unknown>; end: number } | undefined {
  const props: Record<string, unknown> = {};
  let i = at;
  for (;;) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
    const key = /^([\w-]+)[ \t]*=[ \t]*/.exec(text.slice(i));
    if (!key) return { props, end: i };
    i += key[0].length;
    const value = readValue(text, i);
    if (!value) return undefined;
    props[key[1]!] = value.value;
    i = value.end;
  }
}

/** One value at `i`: a quoted string, or a JSON literal/array/object. */
function readValue(text: string, i: number): { value: unknown; end: number } | undefined {
  if (text[i] === '"') {
    let out = '';
    for (let j = i + 1; j < text.length; j++) {
      const c = text[j]!;
      if (c === '"') return { value: out, end: j + 1 };
      if (c === '\\' && j + 1 < text.length) {
        const n = text[++j]!;
        out += n === 'n' ? '\n' : n === 'r' ? '\r' : n === 't' ? '\t' : n;
      } else out += c;
    }
    return undefined;
  }
  let end = i;
  if (text[i] === '{' || text[i] === '[') {
    // A JSON array/object: to its matching bracket, strings skipped.
    let depth = 0;
    for (; end < text.length; end++) {
      const c = text[end]!;
      if (c === '"') {
        for (end++; end < text.length && text[end] !== '"'; end++) if (text[end] === '\\') end++;
      } else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (--depth === 0) {
          end++;
          break;
        }
      }
    }
  } else while (end < text.length && !/[\s%]/.test(text[end]!)) end++;
  const raw = text.slice(i, end);
  if (raw === '') return undefined;
  try {
    return { value: JSON.parse(raw) as unknown, end };
  } catch {
    return { value: raw, end }; // a bare word: a string
  }
}

/** The block a tag line holds, if the line is one. */
export function parseIntegrationTagLine(line: string): IntegrationBlockRef | undefined {
  const head = HEAD.exec(line);
  if (!head) return undefined;
  const parsed = parseProps(line, head[0].length);
  if (!parsed) return undefined;
  if (!/^[ \t]*-?%\}[ \t]*$/.test(line.slice(parsed.end))) return undefined;
  return { integration: head[1]!, block: head[2]!, props: parsed.props };
}

/** One prop as the tag writes it. */
function writeValue(value: unknown): string {
  if (typeof value === 'string')
    return `"${value
      .replace(/[\\"\n\r\t]/g, (c) => ({ '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] ?? `\\${c}`)
      .replace(/%\}/g, '%\\}')}"`;
  // undefined/functions have no JSON: written as null, as JSON.stringify writes them in arrays.
  return (JSON.stringify(value) ?? 'null').replace(/%/g, '\\u0025');
}

/** `key=value …` of props (keys that cannot be written are left out). */
export function writeProps(props: Record<string, unknown>): string {
  return Object.entries(props)
    .filter(([k]) => /^[\w-]+$/.test(k))
    .map(([k, v]) => `${k}=${writeValue(v)}`)
    .join(' ');
}

/** The tag of a block: `{% @integration/block key="value" %}`. */
export function integrationTag(ref: IntegrationBlockRef): string {
  const props = writeProps(ref.props);
  return `{% @${ref.integration}/${ref.block}${props ? ` ${props}` : ''} %}`;
}

/**
 * The tags of a page's markdown, outside code fences, each on a line of its own. A tag inside a
 * paragraph (a line of text right before or after it) is still found here; the document conversion
 * decides whether its paragraph is the tag alone.
 */
export function findIntegrationTags(markdown: string): IntegrationTagBlock[] {
  if (!mayHoldIntegrationTag(markdown)) return [];
  const out: IntegrationTagBlock[] = [];
  const where = fenceTracker();
  markdown.split('\n').forEach((line, i) => {
    if (where(line) !== 'prose') return;
    const ref = parseIntegrationTagLine(line);
    if (ref) out.push({ ...ref, line: i });
  });
  return out;
}

/** The block a fenced code block stands for under the manifests' mappings, if any. */
export function codeblockToBlock(
  lang: string | null | undefined,
  meta: string | null | undefined,
  code: string,
  mappings: readonly CodeblockMapping[],
): IntegrationBlockRef | undefined {
  const m = lang ? mappings.find((x) => x.codeblock === lang) : undefined;
  if (!m) return undefined;
  const parsed = meta ? parseProps(meta) : { props: {}, end: 0 };
  const props = parsed && parsed.end >= (meta ?? '').trimEnd().length ? parsed.props : {};
  return { integration: m.integration, block: m.block, props: { ...props, [m.body]: code } };
}

/** The fence language, meta and text of a block whose manifest maps it to a code block, if it has such a mapping. */
export function blockToCodeblock(
  ref: IntegrationBlockRef,
  mappings: readonly CodeblockMapping[],
): { lang: string; meta: string | null; code: string } | undefined {
  const m = mappings.find((x) => x.integration === ref.integration && x.block === ref.block);
  if (!m || typeof ref.props[m.body] !== 'string') return undefined;
  const { [m.body]: code, ...rest } = ref.props;
  const meta = writeProps(rest);
  return { lang: m.codeblock, meta: meta || null, code: code as string };
}
