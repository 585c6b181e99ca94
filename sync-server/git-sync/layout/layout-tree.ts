import type { DocsConfig } from './config';
import { dirOf, isReadmePath, resolvePath } from './paths';
import type { ParsedSummary } from './summary-parse';

/**
 * The shape of the page tree a repository describes, before any file is read: from SUMMARY.md
 * when there is one, else from the folders. Decisions (GitBook's, where it has one):
 * - the readme (`structure.readme`) is always the first page, listed or not;
 * - with a SUMMARY.md, a markdown file it does not list is not a page: it stays in the repository
 *   untouched and the read warns about it (docs repositories hold CONTRIBUTING.md, drafts and
 *   snippets that must not be published by accident);
 * - an entry whose file is missing, or that lists a file a second time, is skipped with a warning
 *   (its children go to the entry above it) and left in SUMMARY.md as written;
 * - without SUMMARY.md, every markdown file is a page: a folder's README.md (or a `folder.md`
 *   beside it) holds the folder's pages, README.md first, then by name.
 */

export interface LayoutNode {
  kind: 'document' | 'group' | 'link';
  /** Documents: the file. */
  path?: string;
  /** Links: the URL. */
  url?: string;
  /** The title SUMMARY.md gives. */
  listedTitle?: string;
  /** Index of its SUMMARY.md entry. */
  entry?: number;
  children: LayoutNode[];
}

export function summaryLayout(
  parsed: ParsedSummary,
  config: DocsConfig,
  exists: (path: string) => boolean,
  warnings: string[],
): LayoutNode[] {
  const roots: LayoutNode[] = [];
  const nodes: (LayoutNode | undefined)[] = [];
  const listed = new Set<string>();
  const summaryDir = dirOf(config.summary);
  /** The node an entry goes into: its parent entry, or the nearest one above it that became a page. */
  const holderOf = (parent: number | undefined): LayoutNode | undefined => {
    for (let p = parent; p !== undefined; p = parsed.entries[p]!.parent) {
      const node = nodes[p];
      if (node && node.kind !== 'link') return node;
    }
    return undefined;
  };
  parsed.entries.forEach((entry, i) => {
    let node: LayoutNode | undefined;
    if (entry.kind === 'group') node = { kind: 'group', listedTitle: entry.title, entry: i, children: [] };
    else if (entry.url !== undefined)
      node = { kind: 'link', url: entry.url, listedTitle: entry.title, entry: i, children: [] };
    else {
      const path = resolvePath(summaryDir, entry.path ?? '');
      const where = `${config.summary} line ${entry.first + 1}`;
      if (path === undefined || path === '' || !exists(path))
        warnings.push(`${where}: ${entry.href} is not in the repository; the entry is skipped and left as written`);
      else if (listed.has(path)) warnings.push(`${where}: ${path} is listed twice; only its first entry is a page`);
      else {
        listed.add(path);
        node = { kind: 'document', path, listedTitle: entry.title, entry: i, children: [] };
      }
    }
    nodes.push(node);
    if (!node) return;
    const holder = entry.kind === 'group' ? undefined : holderOf(entry.parent);
    (holder ? holder.children : roots).push(node);
  });
  if (exists(config.readme) && !listed.has(config.readme))
    roots.unshift({ kind: 'document', path: config.readme, children: [] });
  return roots;
}

/** Every document of a layout, in tree order. */
export function documentsOf(nodes: readonly LayoutNode[]): string[] {
  const out: string[] = [];
  const walk = (list: readonly LayoutNode[]) => {
    for (const n of list) {
      if (n.path) out.push(n.path);
      walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

/** The layout of a repository without SUMMARY.md (see the file comment). */
export function folderLayout(markdown: readonly string[], config: DocsConfig): LayoutNode[] {
  const present = new Set(markdown);
  const sorted = [...markdown].sort(
    (a, b) =>
      dirOf(a).localeCompare(dirOf(b)) || Number(!isReadmePath(a)) - Number(!isReadmePath(b)) || a.localeCompare(b),
  );
  const parentDir = (dir: string) => dirOf(dir.slice(0, -1));
  /** The nearest folder page above `path`; the root README is the first page, never a holder. */
  const holderOf = (path: string): string | undefined => {
    let dir = isReadmePath(path) ? parentDir(dirOf(path)) : dirOf(path);
    while (dir.length > config.root.length) {
      for (const candidate of [`${dir}README.md`, `${dir.slice(0, -1)}.md`])
        if (candidate !== path && present.has(candidate) && candidate !== config.readme) return candidate;
      dir = parentDir(dir);
    }
    return undefined;
  };
  const nodes = new Map(
    sorted.map((path) => [path, { kind: 'document' as const, path, children: [] as LayoutNode[] }]),
  );
  const roots: LayoutNode[] = [];
  const readme = nodes.get(config.readme);
  if (readme) roots.push(readme);
  for (const path of sorted) {
    if (path === config.readme) continue;
    const holder = holderOf(path);
    (holder ? nodes.get(holder)!.children : roots).push(nodes.get(path)!);
  }
  return roots;
}
