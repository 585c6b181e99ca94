import { slugify, uniqueSlug } from '../markdown/slug';
import { NO_PAGES, presentPage } from './present';
import type { PageInfo } from './snapshot';
import { resolveTree } from './tree';
import type { ApiPage, PageData } from './types';

/**
 * The page half of a snapshot: the API tree, the index by id and by path.
 * Two ways to get the next one:
 * - `rebuild` (structure changed: a page added, removed, moved, re-kinded or
 *   re-slugged): re-resolves the whole tree, O(n) without any Yjs read, and
 *   still reuses every page object whose data, slug, path and children are
 *   unchanged;
 * - `patch` (only page contents changed — the common case of typing): the
 *   layout is unchanged, so only the changed pages and their ancestors get
 *   new objects, O(depth) plus copying the id index.
 */

/** The page part of a snapshot. */
export interface PageTree {
  pages: readonly ApiPage[];
  pageIndex: ReadonlyMap<string, PageInfo>;
  pagesByPath: ReadonlyMap<string, string>;
}

/** Where a page sits: fixed until the structure changes. */
interface Placement {
  parentId: string | null;
  slug: string;
  path: string;
  children: readonly string[];
}

/** What the last build produced for a page. */
interface Built {
  data: PageData;
  placement: Placement;
  children: readonly ApiPage[];
  info: PageInfo;
}

const sameArray = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Stateful builder of PageTrees for one materializer. */
export class PageTreeBuilder {
  private built = new Map<string, Built>();
  private roots: readonly string[] = [];
  private last: PageTree | undefined;
  private readonly baseSlugs = new WeakMap<PageData, string>();

  /** Stored slug (sanitized), else the slugified title, else "page"; memoized per data object. */
  baseSlug(data: PageData): string {
    let slug = this.baseSlugs.get(data);
    if (slug === undefined) {
      slug = slugify(data.slug) || slugify(data.title) || 'page';
      this.baseSlugs.set(data, slug);
    }
    return slug;
  }

  /** Whether replacing `before` by `after` can move the page or change a path (else `patch` applies). */
  isStructural(before: PageData | undefined, after: PageData | undefined): boolean {
    if (!before || !after) return true;
    return (
      before.kind !== after.kind ||
      before.parent !== after.parent ||
      before.index !== after.index ||
      this.baseSlug(before) !== this.baseSlug(after)
    );
  }

  /** Full build from every record. */
  rebuild(records: ReadonlyMap<string, PageData>): PageTree {
    const tree = resolveTree(records);
    // Pre-order walk assigns slugs and paths top-down, deduplicating slugs among siblings in order.
    const order: { id: string; placement: Placement }[] = [];
    const stack: typeof order = [];
    const push = (ids: readonly string[], parentId: string | null, parentPath: string) => {
      const used = new Set<string>();
      const level = ids.map((id) => {
        const data = records.get(id)!;
        // Link pages have no path in the API: they do not take a slug from their siblings.
        const slug = data.kind === 'link' ? this.baseSlug(data) : uniqueSlug(this.baseSlug(data), (s) => used.has(s));
        used.add(slug);
        const children = tree.children.get(id) ?? [];
        return { id, placement: { parentId, slug, path: parentPath ? `${parentPath}/${slug}` : slug, children } };
      });
      for (let i = level.length - 1; i >= 0; i--) stack.push(level[i]!);
    };
    push(tree.roots, null, '');
    while (stack.length > 0) {
      const entry = stack.pop()!;
      order.push(entry);
      push(entry.placement.children, entry.id, entry.placement.path);
    }
    // Reverse pre-order reaches children before their parent: build bottom-up.
    const next = new Map<string, Built>();
    for (let i = order.length - 1; i >= 0; i--) {
      const { id, placement } = order[i]!;
      next.set(id, this.build(id, records.get(id)!, placement, next, this.built.get(id)));
    }
    const pageIndex = new Map<string, PageInfo>();
    const pagesByPath = new Map<string, string>();
    for (const { id } of order) {
      const info = next.get(id)!.info;
      pageIndex.set(id, info);
      if (info.page.type !== 'link') pagesByPath.set(info.path, id);
    }
    this.built = next;
    this.roots = tree.roots;
    return this.finish(pageIndex, pagesByPath);
  }

  /** Content-only changes of `changed` (no structural change since the last build). */
  patch(records: ReadonlyMap<string, PageData>, changed: Iterable<string>): PageTree {
    if (!this.last) return this.rebuild(records);
    // The changed pages and all their ancestors, deepest first.
    const depth = new Map<string, number>();
    for (const id of changed) {
      for (
        let cur: string | null = id;
        cur !== null && !depth.has(cur);
        cur = this.built.get(cur)?.placement.parentId ?? null
      )
        depth.set(cur, 0);
    }
    const depthOf = (id: string) => {
      let d = 0;
      for (
        let cur = this.built.get(id)?.placement.parentId ?? null;
        cur !== null;
        cur = this.built.get(cur)?.placement.parentId ?? null
      )
        d++;
      return d;
    };
    for (const id of depth.keys()) depth.set(id, depthOf(id));
    const ids = [...depth.keys()].sort((a, b) => depth.get(b)! - depth.get(a)!);
    const pageIndex = new Map(this.last.pageIndex);
    for (const id of ids) {
      const prev = this.built.get(id)!;
      const built = this.build(id, records.get(id)!, prev.placement, this.built, prev);
      this.built.set(id, built);
      pageIndex.set(id, built.info);
    }
    return this.finish(pageIndex, this.last.pagesByPath);
  }

  /** One page's entry, reusing `prev`'s objects when nothing it depends on changed. */
  private build(
    id: string,
    data: PageData,
    placement: Placement,
    built: ReadonlyMap<string, Built>,
    prev: Built | undefined,
  ): Built {
    let children = placement.children.length === 0 ? NO_PAGES : placement.children.map((c) => built.get(c)!.info.page);
    if (prev && sameArray(prev.children, children)) children = prev.children;
    const { parentId, slug, path } = placement;
    const same =
      prev &&
      prev.data === data &&
      prev.placement.slug === slug &&
      prev.placement.path === path &&
      prev.children === children;
    const page = same
      ? prev.info.page
      : presentPage(data, slug, path, children === NO_PAGES ? NO_PAGES : Object.freeze(children));
    const info = same && prev.info.parentId === parentId ? prev.info : Object.freeze({ page, parentId, path });
    return { data, placement, children, info };
  }

  private finish(pageIndex: Map<string, PageInfo>, pagesByPath: ReadonlyMap<string, string>): PageTree {
    const roots = this.roots.map((id) => this.built.get(id)!.info.page);
    const pages = this.last && sameArray(this.last.pages, roots) ? this.last.pages : Object.freeze(roots);
    this.last = { pages, pageIndex, pagesByPath };
    return this.last;
  }
}
