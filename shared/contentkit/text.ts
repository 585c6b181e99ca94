/**
 * The text of ContentKit elements: what an element the renderer does not know degrades to, and
 * the `markdown` sources a server renders ahead (its markdown renderer is asynchronous, the
 * ContentKit renderer is not). Pure and bounded: an element tree from an integration may be deep.
 */

/** A ContentKit element as received: any JSON object. */
export type CkNode = Record<string, unknown>;

const TEXT_KEYS = ['title', 'label', 'children', 'content', 'hint', 'element', 'text'] as const;
const MAX_DEPTH = 32;
const MAX_CHARS = 10_000;

/** The readable text of an element: its titles, labels, strings and children's text, space-separated. */
export function contentKitText(node: unknown): string {
  const parts: string[] = [];
  let length = 0;
  const walk = (v: unknown, depth: number) => {
    if (depth > MAX_DEPTH || length > MAX_CHARS) return;
    if (typeof v === 'string') {
      const t = v.trim();
      if (t) {
        parts.push(t);
        length += t.length;
      }
    } else if (Array.isArray(v)) v.forEach((c) => walk(c, depth + 1));
    else if (typeof v === 'object' && v !== null) for (const k of TEXT_KEYS) walk((v as CkNode)[k], depth + 1);
  };
  walk(node, 0);
  const text = parts.join(' ');
  return text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
}

/** The literal texts of the `markdown` elements under `node` (bound ones read `state`), each once. */
export function markdownSources(node: unknown, state: Record<string, unknown> = {}): string[] {
  const out = new Set<string>();
  let seen = 0;
  const walk = (v: unknown, depth: number) => {
    if (depth > MAX_DEPTH || ++seen > 4000 || typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) return v.forEach((c) => walk(c, depth + 1));
    const n = v as CkNode;
    if (n.type === 'markdown') {
      const c = n.content;
      const text =
        typeof c === 'string'
          ? c
          : typeof c === 'object' && c !== null && typeof (c as CkNode).$state === 'string'
            ? state[(c as CkNode).$state as string]
            : undefined;
      if (typeof text === 'string') out.add(text);
    }
    for (const k of ['children', 'element', 'header', 'footer']) walk(n[k], depth + 1);
  };
  walk(node, 0);
  return [...out];
}
