/**
 * How links in a page's markdown name their targets — the convention GitBook
 * documents for markdown page content, plus its Git-sync asset folder:
 *
 * | href                                   | target                                        |
 * |----------------------------------------|-----------------------------------------------|
 * | `#anchor`                              | a heading of the same page                    |
 * | `https://…`, `mailto:…`, `//host/…`    | an external URL                               |
 * | `/pages/<pageId>` (`#anchor` optional) | a page by id (canonical form Folio writes)    |
 * | `/pages/<path>`, `/pages/<path>.md`, `/pages/<path>/README.md` | a page by path; `/pages/README.md` is the first page |
 * | `/<path>` (published-site URL)         | a page by path                                |
 * | `./sibling.md`, `../other.md`, `./section` | relative to the page's Git file: `<path>.md`, or `<path>/README.md` when it has children |
 * | `/files/<fileId>`                      | a file by id (canonical form Folio writes)    |
 * | `…/.gitbook/assets/<name>`             | a file by name (Git-sync form; any prefix)    |
 * | `./<name>.<ext>` (relative, not `.md`)  | a file by name (its last segment), as GitBook's upload refs |
 */

/** Syntactic class of an href, before looking anything up. */
export type LinkKind = 'page' | 'file' | 'anchor' | 'url';

/** An href split into its class, path-like target (decoded, without fragment or query) and anchor. */
export interface ClassifiedHref {
  kind: LinkKind;
  target: string;
  anchor?: string;
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
const ASSET = /(?:^|\/)\.gitbook\/assets\/(.+)$/;
const FILE_BY_ID = /^\/files\/([^/]+)$/;
/** A relative path whose last segment has an extension other than .md names a file, not a page. */
const RELATIVE_FILE = /^(?!\/)(?:.*\/)?([^/]+\.(?!md$)[A-Za-z0-9]+)$/;

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // a stray '%' is kept literally rather than failing the whole page
  }
}

/** Classifies an href by syntax alone (see the table above). */
export function classifyHref(href: string): ClassifiedHref {
  const raw = href.trim();
  if (SCHEME.test(raw) || raw.startsWith('//')) return { kind: 'url', target: raw };
  const hash = raw.indexOf('#');
  const anchor = hash >= 0 ? decode(raw.slice(hash + 1)) : undefined;
  const beforeHash = hash >= 0 ? raw.slice(0, hash) : raw;
  const query = beforeHash.indexOf('?');
  const target = decode(query >= 0 ? beforeHash.slice(0, query) : beforeHash);
  const withAnchor = (c: ClassifiedHref): ClassifiedHref => (anchor ? { ...c, anchor } : c);
  if (target === '')
    return anchor !== undefined ? { kind: 'anchor', target: '', anchor } : { kind: 'url', target: raw };
  if (ASSET.test(target) || FILE_BY_ID.test(target) || RELATIVE_FILE.test(target)) return { kind: 'file', target };
  return withAnchor({ kind: 'page', target });
}

/** What resolution may look up in the revision. */
export interface LinkTargets {
  /** Page id at a path (document and group pages). */
  pageByPath(path: string): string | undefined;
  hasPage(id: string): boolean;
  /** Whether the page at `path` has child pages (its Git file is then `<path>/README.md`). */
  hasChildren(path: string): boolean;
  /** The space's first page (`/pages/README.md`). */
  rootPage(): string | undefined;
  /** File id for a file name (the first by id when names repeat). */
  fileByName(name: string): string | undefined;
  hasFile(id: string): boolean;
}

/** A resolved link; `broken` = an internal link whose target does not exist. */
export type ResolvedLink =
  | { kind: 'page'; page: string; anchor?: string }
  | { kind: 'file'; file: string }
  | { kind: 'anchor'; anchor: string }
  | { kind: 'url'; url: string }
  | { kind: 'broken'; href: string };

/** Joins and normalizes path segments ('.' and '..'); undefined when '..' climbs above the root. */
function joinPath(base: string, rel: string): string | undefined {
  const out: string[] = [];
  for (const seg of `${base}/${rel}`.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(seg);
  }
  return out.join('/');
}

/** The page at a Git-style or URL-style path: `a/b`, `a/b.md`, `a/b/README.md`, `README.md` (first page). */
function pageAt(path: string, targets: LinkTargets): string | undefined {
  let p = path.replace(/\/+$/, '');
  if (p === 'README.md' || p === '') return targets.rootPage();
  if (p.endsWith('/README.md')) p = p.slice(0, -'/README.md'.length);
  else if (p.endsWith('.md')) p = p.slice(0, -'.md'.length);
  return targets.pageByPath(p);
}

/**
 * Resolves `href` written in the page at `fromPath` (see the table at the top
 * of this file). Relative links use the page's Git file location; when that
 * finds nothing, the other reading (the page path as a URL) is tried, so
 * links written either way work.
 */
export function resolveLink(fromPath: string, href: string, targets: LinkTargets): ResolvedLink {
  const c = classifyHref(href);
  if (c.kind === 'url') return c.target === '' ? { kind: 'broken', href } : { kind: 'url', url: c.target };
  if (c.kind === 'anchor') return { kind: 'anchor', anchor: c.anchor ?? '' };
  const asset = ASSET.exec(c.target) ?? RELATIVE_FILE.exec(c.target);
  if (asset) {
    const file = targets.fileByName(asset[1]!);
    return file ? { kind: 'file', file } : { kind: 'broken', href };
  }
  const byId = FILE_BY_ID.exec(c.target);
  if (byId && targets.hasFile(byId[1]!)) return { kind: 'file', file: byId[1]! };

  let page: string | undefined;
  if (c.target.startsWith('/')) {
    const abs = c.target.slice(1);
    if (abs.startsWith('pages/')) {
      const rest = abs.slice('pages/'.length);
      page = targets.hasPage(rest) ? rest : pageAt(rest, targets);
    } else page = pageAt(abs, targets);
  } else {
    const parentDir = fromPath.includes('/') ? fromPath.slice(0, fromPath.lastIndexOf('/')) : '';
    const bases = targets.hasChildren(fromPath) ? [fromPath, parentDir] : [parentDir, fromPath];
    for (const base of bases) {
      const joined = joinPath(base, c.target);
      page = joined === undefined ? undefined : pageAt(joined, targets);
      if (page) break;
    }
  }
  if (!page) return { kind: 'broken', href };
  return c.anchor ? { kind: 'page', page, anchor: c.anchor } : { kind: 'page', page };
}

/**
 * LinkTargets over plain lists of pages, in tree order (the first non-group
 * page is the root page), and files.
 */
export function createLinkTargets(
  pages: Iterable<{ id: string; path: string; hasChildren: boolean; group?: boolean }>,
  files: Iterable<{ id: string; name: string }>,
): LinkTargets {
  const byPath = new Map<string, { id: string; hasChildren: boolean }>();
  const ids = new Set<string>();
  let first: string | undefined;
  for (const p of pages) {
    ids.add(p.id);
    if (!p.group) first ??= p.id;
    if (!byPath.has(p.path)) byPath.set(p.path, p);
  }
  const fileIds = new Set<string>();
  const byName = new Map<string, string>();
  for (const f of files) {
    fileIds.add(f.id);
    const prev = byName.get(f.name);
    if (prev === undefined || f.id < prev) byName.set(f.name, f.id);
  }
  return {
    pageByPath: (path) => byPath.get(path)?.id,
    hasPage: (id) => ids.has(id),
    hasChildren: (path) => byPath.get(path)?.hasChildren ?? false,
    rootPage: () => first,
    fileByName: (name) => byName.get(name),
    hasFile: (id) => fileIds.has(id),
  };
}

/** The canonical href Folio writes for a reference (by id, so renames and moves never break it). */
export function hrefForRef(ref: { kind: string; url?: string; page?: string; file?: string; anchor?: string }): string {
  switch (ref.kind) {
    case 'url':
      return ref.url ?? '';
    case 'page':
      return `/pages/${ref.page ?? ''}`;
    case 'file':
      return `/files/${ref.file ?? ''}`;
    case 'anchor':
      return ref.page ? `/pages/${ref.page}#${ref.anchor ?? ''}` : `#${ref.anchor ?? ''}`;
    default:
      return '';
  }
}
