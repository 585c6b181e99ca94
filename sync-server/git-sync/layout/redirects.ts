import { isMap, isScalar, parse, parseDocument, type Document, type Node } from 'yaml';
import { isReadmePath, resolvePath } from './paths';

/**
 * GitBook's redirects: `.gitbook.yaml`'s `redirects` map, `old/url/path: new/file.md`, both relative
 * to the docs root (the key a URL path without `.md`, the value a markdown file). The reader hands
 * them to the import (the target page gets the old path as a former path, so Folio answers it); the
 * writer adds one when Folio moves a page's file — only to a `.gitbook.yaml` that already has a
 * `redirects` map (the repository asked for redirects; GitBook itself adds none on its own), by
 * editing that map alone with yaml's Document API: every other byte of the file, and every
 * existing redirect, stays as it was.
 */

export interface Redirect {
  /** The old URL path, relative to the docs root: no leading or trailing '/', no `.md`. */
  from: string;
  /** The repository path of the file it leads to. */
  to: string;
}

/** A redirect's key as a page path: `/old/path/`, `old/path.md` -> `old/path`; undefined when unusable. */
export function redirectSource(key: string): string | undefined {
  const path = resolvePath('', key.trim().replace(/\\/g, '/'));
  if (path === undefined || path === '') return undefined;
  return path.replace(/\.md$/i, '') || undefined;
}

/** The redirects of a `.gitbook.yaml` text, in the file's order; what cannot be used is said in `warnings`. */
export function readRedirects(
  text: string | undefined,
  root: string,
  configPath: string,
  warnings: string[],
): Redirect[] {
  if (text === undefined) return [];
  let data: unknown;
  try {
    data = parse(text);
  } catch {
    return []; // readConfig already said so.
  }
  const redirects = data && typeof data === 'object' ? (data as Record<string, unknown>).redirects : undefined;
  if (redirects === undefined || redirects === null) return [];
  if (typeof redirects !== 'object' || Array.isArray(redirects)) {
    warnings.push(`${configPath}: redirects is not a map: it is ignored`);
    return [];
  }
  const out: Redirect[] = [];
  for (const [key, value] of Object.entries(redirects as Record<string, unknown>)) {
    const from = redirectSource(key);
    const to = typeof value === 'string' ? resolvePath(root, value.trim()) : undefined;
    if (from === undefined || to === undefined || to === '' || !`${to}/`.startsWith(root)) {
      warnings.push(
        `${configPath}: the redirect ${JSON.stringify(key)} is not a path to a file of the docs: it is ignored`,
      );
      continue;
    }
    out.push({ from, to });
  }
  return out;
}

/** The URL path GitBook gives a page's file (relative to the docs root): `a/b.md` -> `a/b`, `a/README.md` -> `a`. */
export function urlPathOf(path: string, root: string, readme: string): string | undefined {
  if (!path.startsWith(root) || path === readme) return undefined;
  const rel = path.slice(root.length);
  const url = isReadmePath(rel) ? rel.replace(/(^|\/)readme\.md$/i, '') : rel.replace(/\.md$/i, '');
  return url === '' ? undefined : url;
}

/** Whether the `.gitbook.yaml` text has a `redirects` map (possibly empty) at its top level. */
export function hasRedirectsMap(text: string | undefined): boolean {
  if (text === undefined) return false;
  const doc = parseDocument(text);
  return doc.errors.length === 0 && isMap(doc.contents) && isMap(doc.get('redirects', true));
}

type Pair = { key: unknown; value: unknown };

/** Where a pair's text ends in its document: its value's end, else its key's. */
function pairEnd(pair: Pair): number | undefined {
  const node = (pair.value ?? pair.key) as Node | null;
  return node?.range?.[1];
}

/** A pair's own text in its document (`key: value`). */
function pairText(source: string, pair: Pair): string | undefined {
  const start = (pair.key as Node | null)?.range?.[0];
  const end = pairEnd(pair);
  return start === undefined || end === undefined ? undefined : source.slice(start, end);
}

/**
 * `text` with `add` (old URL path -> file path relative to the docs root) added to its `redirects`
 * map; keys already there are left alone (never changed, never dropped). The map is edited through
 * yaml's Document API; the new pairs' printed text is then inserted after the map's last pair (a
 * new line at its indentation, or `, pair` in a flow map), so every other byte — comments, spacing,
 * existing redirects — stays as written. Answers `text` itself when there is nothing to add or no
 * `redirects` map; the whole printed document only if that insertion does not read back the same.
 */
export function addRedirects(text: string, add: ReadonlyMap<string, string>): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0 || !isMap(doc.contents)) return text;
  const map = doc.get('redirects', true);
  if (!isMap(map)) return text;
  const keyOf = (pair: Pair) => (isScalar(pair.key) ? String(pair.key.value) : '');
  const fresh = [...add].filter(([key]) => !map.items.some((pair) => keyOf(pair) === key));
  if (fresh.length === 0) return text;
  const old = [...map.items];
  const mapRange = map.range;
  for (const [key, value] of fresh) map.set(doc.createNode(key), doc.createNode(value));
  const printed = String(doc);
  const again = parseDocument(printed);
  const printedMap = again.get('redirects', true);
  const added = isMap(printedMap) ? printedMap.items.slice(old.length).map((p) => pairText(printed, p)) : [];
  let spliced: string | undefined;
  if (added.length === fresh.length && added.every((t) => t !== undefined) && mapRange) {
    const last = old.at(-1);
    if (!last && map.flow) {
      // `redirects: {}`: its braces become the printed map.
      const [from, to] = (printedMap as Node).range!;
      spliced = text.slice(0, mapRange[0]) + printed.slice(from, to) + text.slice(mapRange[1]);
    } else if (last && map.flow) {
      const at = pairEnd(last)!;
      spliced = text.slice(0, at) + added.map((t) => `, ${t}`).join('') + text.slice(at);
    } else if (last) {
      const keyStart = (old[0]!.key as Node).range![0];
      const indent = ' '.repeat(keyStart - (text.lastIndexOf('\n', keyStart - 1) + 1));
      const lineEnd = text.indexOf('\n', pairEnd(last)!);
      const at = lineEnd === -1 ? text.length : lineEnd + 1;
      const lines = added.map((t) => `${indent}${t}\n`).join('');
      spliced = text.slice(0, at) + (lineEnd === -1 ? '\n' : '') + lines + text.slice(at);
    }
  }
  return spliced !== undefined && sameData(spliced, again) ? spliced : printed;
}
function sameData(text: string, expected: Document): boolean {
  const doc = parseDocument(text);
  return doc.errors.length === 0 && JSON.stringify(doc.toJS()) === JSON.stringify(expected.toJS());
}
