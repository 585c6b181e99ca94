import { posix } from 'node:path';

/**
 * Repository paths: always relative to the repository's root, '/'-separated, never with '.' or
 * '..' segments. A directory is '' (the root) or ends with '/', so `dir + name` is a path.
 */

/** `docs`, `./docs/`, `/docs` -> `docs/`; '', '.', './' -> ''; undefined when it climbs out ('..'). */
export function normalizeDir(dir: string | undefined): string | undefined {
  const path = resolvePath('', (dir ?? '').replace(/\\/g, '/'));
  if (path === undefined) return undefined;
  return path === '' ? '' : `${path}/`;
}

/** The path `rel` names from directory `dir`; undefined when it leaves the repository. */
export function resolvePath(dir: string, rel: string): string | undefined {
  const out: string[] = [];
  for (const seg of `${dir}/${rel.startsWith('/') ? rel.slice(1) : rel}`.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

/** The directory holding `path` ('' or `dir/`). */
export const dirOf = (path: string): string => path.slice(0, path.lastIndexOf('/') + 1);

/** The last segment of `path`. */
export const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

export const isMarkdownPath = (path: string): boolean => /\.md$/i.test(path);

/** Whether `path` is a folder's README (`dir/README.md`, or `README.md` itself). */
export const isReadmePath = (path: string): boolean => /(^|\/)readme\.md$/i.test(path);

/** Decodes %-escapes; a stray '%' stays as written rather than failing the whole page. */
export function decodeHref(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    return href;
  }
}

/**
 * Percent-encodes what a markdown link destination cannot hold as is: spaces, and parentheses
 * (balanced ones are legal CommonMark, but they end the link for simpler readers, Folio's own
 * link regex included).
 */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The href that leads from a file in directory `fromDir` to `toPath`. */
export function relativeHref(fromDir: string, toPath: string): string {
  const from = fromDir.replace(/\/$/, '');
  const rel = posix.relative(`/${from}`, `/${toPath}`);
  return rel
    .split('/')
    .map((s) => (s === '..' ? s : encodeSegment(s)))
    .join('/');
}

/** `name` made unique against `taken` by a `-2`, `-3`… before its extension. */
export function uniquePath(path: string, taken: (path: string) => boolean): string {
  if (!taken(path)) return path;
  const dir = dirOf(path);
  const base = baseName(path);
  const readme = isReadmePath(path) && dir !== '';
  // A folder page is unique by its folder: `a/README.md` -> `a-2/README.md`.
  const stemOf = readme ? dir.slice(0, -1) : base.replace(/\.[^.]*$/, '');
  const rest = readme ? `/${base}` : base.slice(stemOf.length);
  const parent = readme ? dirOf(stemOf) : dir;
  const stem = readme ? baseName(stemOf) : stemOf;
  for (let n = 2; ; n++) {
    const candidate = `${parent}${stem}-${n}${rest}`;
    if (!taken(candidate)) return candidate;
  }
}
