import { generateNKeysBetween } from 'fractional-indexing';
import { PageTreeBuilder } from '../../../shared/doc/page-tree';
import type { PageData } from '../../../shared/doc/types';
import { createLinkTargets, resolveLink, type LinkTargets } from '../../../shared/markdown/links';
import { decodeHref, dirOf, relativeHref, resolvePath } from './paths';
import type { RepoPageKind } from './types';

/**
 * What a link points at, read two ways. In the repository, a relative href names a file from the
 * page's own file (`../other.md`, `dir/` for a folder's README, `../.gitbook/assets/x.png`). In
 * Folio, the same href is read by shared/markdown/links.ts from the page's *Folio* path (slugs),
 * and `/pages/<id>`, `/files/<id>` name pages and files by id. Where both readings agree, a link
 * can stay as written; where they differ, the codec rewrites it for the side it is writing.
 */

export type Target = { kind: 'page'; id: string; anchor?: string } | { kind: 'file'; id: string };

export const sameTarget = (a: Target | undefined, b: Target | undefined): boolean =>
  a !== undefined && b !== undefined && a.kind === b.kind && a.id === b.id;

/** The repository side: which page (by id, or key before it has one) or asset a path holds. */
export interface RepoIndex {
  pageAt(path: string): string | undefined;
  fileAt(path: string): string | undefined;
  /** Where a page's or asset's file is. */
  pathOfPage(id: string): string | undefined;
  pathOfFile(id: string): string | undefined;
}

export function repoIndex(pages: Iterable<[id: string, path: string]>, files: Iterable<[id: string, path: string]>) {
  const pageByPath = new Map<string, string>();
  const pagePath = new Map<string, string>();
  for (const [id, path] of pages) {
    pageByPath.set(path, id);
    pagePath.set(id, path);
  }
  const fileByPath = new Map<string, string>();
  const filePath = new Map<string, string>();
  for (const [id, path] of files) {
    fileByPath.set(path, id);
    filePath.set(id, path);
  }
  const index: RepoIndex = {
    pageAt: (p) => pageByPath.get(p),
    fileAt: (p) => fileByPath.get(p),
    pathOfPage: (id) => pagePath.get(id),
    pathOfFile: (id) => filePath.get(id),
  };
  return index;
}

const EXTERNAL = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|\/\/|#|\/)/;

/** Splits an href into its decoded path and its anchor. */
function splitHref(href: string): { path: string; anchor?: string } {
  const hash = href.indexOf('#');
  const anchor = hash >= 0 ? decodeHref(href.slice(hash + 1)) : undefined;
  const beforeHash = hash >= 0 ? href.slice(0, hash) : href;
  const query = beforeHash.indexOf('?');
  const path = decodeHref(query >= 0 ? beforeHash.slice(0, query) : beforeHash);
  return anchor ? { path, anchor } : { path };
}

/** What a relative href written in the file at `fromPath` names in the repository. */
export function resolveInRepo(fromPath: string, href: string, index: RepoIndex): Target | undefined {
  const raw = href.trim();
  if (raw === '' || EXTERNAL.test(raw)) return undefined;
  const { path: rel, anchor } = splitHref(raw);
  const path = resolvePath(dirOf(fromPath), rel);
  if (path === undefined) return undefined;
  const file = index.fileAt(path);
  if (file !== undefined) return { kind: 'file', id: file };
  const folder = path === '' ? 'README.md' : `${path}/README.md`;
  for (const candidate of rel.endsWith('/') || path === '' ? [folder] : [path, folder, `${path}.md`]) {
    const page = index.pageAt(candidate);
    if (page !== undefined) return anchor ? { kind: 'page', id: page, anchor } : { kind: 'page', id: page };
  }
  return undefined;
}

/**
 * The href from the file at `fromPath` to a target's file, followed by `hash` (the `#anchor` part
 * of the href it replaces, as written); undefined when the target has no file (a group).
 */
export function hrefTo(
  fromPath: string,
  target: Target,
  index: RepoIndex,
  hash: string,
  selfId?: string,
): string | undefined {
  if (target.kind === 'file') {
    const path = index.pathOfFile(target.id);
    return path === undefined ? undefined : relativeHref(dirOf(fromPath), path);
  }
  if (target.id === selfId && hash) return hash;
  const path = index.pathOfPage(target.id);
  return path === undefined ? undefined : relativeHref(dirOf(fromPath), path) + hash;
}

/** The `#anchor` part of an href, as written ('' when none). */
export const hashOf = (href: string): string => {
  const at = href.indexOf('#');
  return at < 0 ? '' : href.slice(at);
};

/** A page tree as Folio's link resolution needs it. */
export interface TreeNode {
  id: string;
  kind: RepoPageKind;
  title: string;
  slug: string;
  children: readonly TreeNode[];
}

/** The Folio side: each page's path (as the materializer computes it) and the resolver's targets. */
export interface FolioIndex {
  pathOf(id: string): string;
  targets: LinkTargets;
}

/** Folio's page paths for a tree, computed by the materializer's own code (shared/doc/page-tree.ts). */
export function folioIndex(roots: readonly TreeNode[], files: Iterable<{ id: string; name: string }>): FolioIndex {
  const records = new Map<string, PageData>();
  const order: { id: string; hasChildren: boolean; group: boolean }[] = [];
  const add = (nodes: readonly TreeNode[], parent: string | null) => {
    const keys = generateNKeysBetween(null, null, nodes.length);
    nodes.forEach((node, i) => {
      records.set(node.id, {
        id: node.id,
        kind: node.kind,
        title: node.title,
        slug: node.slug,
        parent,
        index: keys[i]!,
        hidden: false,
        noIndex: false,
        layout: {},
        markdown: '',
      });
      order.push({ id: node.id, hasChildren: node.children.length > 0, group: node.kind === 'group' });
      add(node.children, node.id);
    });
  };
  add(roots, null);
  const tree = new PageTreeBuilder().rebuild(records);
  const pathOf = (id: string) => tree.pageIndex.get(id)?.path ?? '';
  return {
    pathOf,
    targets: createLinkTargets(
      order.map((p) => ({ ...p, path: pathOf(p.id) })),
      files,
    ),
  };
}

/** What an href written in the page `pageId` names in Folio. */
export function resolveInFolio(pageId: string, href: string, folio: FolioIndex): Target | undefined {
  const resolved = resolveLink(folio.pathOf(pageId), href, folio.targets);
  if (resolved.kind === 'page')
    return resolved.anchor
      ? { kind: 'page', id: resolved.page, anchor: resolved.anchor }
      : { kind: 'page', id: resolved.page };
  if (resolved.kind === 'file') return { kind: 'file', id: resolved.file };
  return undefined;
}
