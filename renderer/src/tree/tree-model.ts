import type * as Y from 'yjs';
import { observeContent } from '../../../shared/doc/observe';
import { PAGE, childMap, pagesRoot } from '../../../shared/doc/keys';
import { readOutline, readOutlineEntry, sameOutlineEntry, type OutlineEntry } from '../../../shared/doc/outline';
import { resolveTree, type ResolvedTree } from '../../../shared/doc/tree';

/**
 * The page tree of an open content document, kept current as the document
 * changes. Typing changes a page's body many times a second; only a change
 * to a page's outline (title, emoji, parent, order, kind, existence) makes
 * the tree change, so each transaction re-reads just the pages it touched.
 */
export class TreeModel {
  private outline: Map<string, OutlineEntry>;
  /** Pages hidden from the published site (the tree marks them). */
  private readonly hiddenPages = new Set<string>();
  private resolved: ResolvedTree;
  private listeners = new Set<() => void>();
  private readonly unobserve: () => void;

  constructor(doc: Y.Doc) {
    this.outline = readOutline(doc);
    for (const id of this.outline.keys()) if (isHidden(doc, id)) this.hiddenPages.add(id);
    this.resolved = resolveTree(this.outline);
    this.unobserve = observeContent(doc, (change) => {
      let changed = false;
      for (const id of change.pages) {
        const hidden = isHidden(doc, id);
        if (hidden !== this.hiddenPages.has(id)) {
          changed = true;
          if (hidden) this.hiddenPages.add(id);
          else this.hiddenPages.delete(id);
        }
        const next = readOutlineEntry(doc, id);
        if (sameOutlineEntry(this.outline.get(id), next)) continue;
        changed = true;
        if (next) this.outline.set(id, next);
        else this.outline.delete(id);
      }
      if (!changed) return;
      this.resolved = resolveTree(this.outline);
      for (const listener of this.listeners) listener();
    });
  }

  /** The resolved tree (effective parents, ordered children). */
  get tree(): ResolvedTree {
    return this.resolved;
  }

  /** Number of pages. */
  get size(): number {
    return this.outline.size;
  }

  /** A page's outline entry. */
  entry(id: string): OutlineEntry | undefined {
    return this.outline.get(id);
  }

  /** Whether the page is hidden from the published site. */
  isHidden(id: string): boolean {
    return this.hiddenPages.has(id);
  }

  /** Ordered children of `parent` (null = the top level). */
  childrenOf(parent: string | null): readonly string[] {
    return parent === null ? this.resolved.roots : (this.resolved.children.get(parent) ?? []);
  }

  /** The effective parent of a page (null = top level). */
  parentOf(id: string): string | null {
    return this.resolved.parentOf.get(id) ?? null;
  }

  /** Every page id in display order (depth first). */
  ordered(): string[] {
    const out: string[] = [];
    const walk = (ids: readonly string[]) => {
      for (const id of ids) {
        out.push(id);
        walk(this.childrenOf(id));
      }
    };
    walk(this.resolved.roots);
    return out;
  }

  /** Calls `listener` whenever the tree changes; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops observing the document. */
  destroy(): void {
    this.unobserve();
    this.listeners.clear();
  }
}

function isHidden(doc: Y.Doc, id: string): boolean {
  return childMap(pagesRoot(doc), id)?.get(PAGE.hidden) === true;
}
