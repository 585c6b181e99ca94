import * as Y from 'yjs';
import type { MarkdownAnalysis } from '../markdown/analyze';
import { degradedAnalysis } from '../markdown/degraded';
import { checkMarkdownLimits } from '../markdown/limits';
import { readVariables } from './content-assets';
import { childMap, filesRoot, pagesRoot, reusableRoot, variablesRoot } from './keys';
import { collectKeys } from './observe';
import { PageTreeBuilder } from './page-tree';
import { presentFile } from './present';
import { readFile, readPage, readReusable } from './read';
import { MaterializedContent, type FileInfo } from './snapshot';
import type { ApiFile, ApiReusableContent, PageData } from './types';

export { MaterializedContent, type FileInfo, type PageInfo, type ResolvedPageLink } from './snapshot';

function samePageData(a: PageData, b: PageData): boolean {
  for (const key of Object.keys(b) as (keyof PageData)[]) {
    if (key === 'layout' || key === 'computed') continue;
    if (a[key] !== b[key]) return false;
  }
  return (
    Object.keys(a).length === Object.keys(b).length &&
    JSON.stringify(a.layout) === JSON.stringify(b.layout) &&
    JSON.stringify(a.computed) === JSON.stringify(b.computed)
  );
}

const EMPTY_ANALYSIS: MarkdownAnalysis = Object.freeze({ links: [], sections: [] }) as MarkdownAnalysis;

/** Links and sections of a page's markdown, on the calling thread (`analyzeMarkdown` of shared/markdown/analyze). */
export type MarkdownAnalyzer = (markdown: string) => MarkdownAnalysis;

/**
 * The analyzer of a Materializer made without one. The server analyses pages in its parse pool
 * (MarkdownService.analysis), never on the event loop, so it gives none, and the markdown parser
 * stays off its boot path; asking a snapshot for an analysis there is a bug.
 */
const noAnalyzer: MarkdownAnalyzer = () => {
  throw new Error('This Materializer has no markdown analyzer: pass { analyze: analyzeMarkdown } to use analysis()');
};

/**
 * Materializes one content Y.Doc into immutable snapshots, incrementally: it
 * observes the document and, on snapshot(), re-reads only the pages, files
 * and collections that changed. When pages only changed content, only they
 * and their ancestors get new objects; when the structure changed (moves,
 * creations, deletions, slugs), the tree is re-resolved in full — no Yjs
 * reads, O(n) — still reusing every page object whose data, slug, path and
 * children are unchanged. Either way, after a one-character edit the new
 * snapshot shares every page object except the edited page and its ancestors.
 * Call snapshot() outside transactions (observers run at transaction end).
 */
export class Materializer {
  private readonly pages: Y.Map<unknown>;
  private readonly files: Y.Map<unknown>;
  private readonly reusable: Y.Map<unknown>;
  private readonly vars: Y.Map<unknown>;
  private readonly dirtyPages = new Set<string>();
  private readonly dirtyFiles = new Set<string>();
  private dirtyReusable = true;
  private dirtyVariables = true;
  private readonly records = new Map<string, PageData>();
  private readonly fileCache = new Map<string, FileInfo>();
  private readonly tree = new PageTreeBuilder();
  private last: MaterializedContent | undefined;
  private lastPageData: ReadonlyMap<string, PageData> = new Map();
  private readonly analyses = new WeakMap<PageData, MarkdownAnalysis>();
  private readonly analyzeMarkdown: MarkdownAnalyzer;
  private readonly unobserve: () => void;

  /**
   * Starts observing `doc`; call destroy() when done with it. `analyze` serves the snapshots'
   * analysis() and resolvedLinks() (the app and tests pass `analyzeMarkdown`; the server none).
   */
  constructor(doc: Y.Doc, options: { analyze?: MarkdownAnalyzer } = {}) {
    this.analyzeMarkdown = options.analyze ?? noAnalyzer;
    this.pages = pagesRoot(doc);
    this.files = filesRoot(doc);
    this.reusable = reusableRoot(doc);
    this.vars = variablesRoot(doc);
    for (const id of this.pages.keys()) this.dirtyPages.add(id);
    for (const id of this.files.keys()) this.dirtyFiles.add(id);
    const onPages = (events: Y.YEvent<Y.AbstractType<unknown>>[]) => collectKeys(this.pages, events, this.dirtyPages);
    const onFiles = (events: Y.YEvent<Y.AbstractType<unknown>>[]) => collectKeys(this.files, events, this.dirtyFiles);
    const onReusable = () => (this.dirtyReusable = true);
    const onVariables = () => (this.dirtyVariables = true);
    this.pages.observeDeep(onPages);
    this.files.observeDeep(onFiles);
    this.reusable.observeDeep(onReusable);
    this.vars.observe(onVariables);
    this.unobserve = () => {
      this.pages.unobserveDeep(onPages);
      this.files.unobserveDeep(onFiles);
      this.reusable.unobserveDeep(onReusable);
      this.vars.unobserve(onVariables);
    };
  }

  /** Stops observing the document. Snapshots already taken stay valid. */
  destroy(): void {
    this.unobserve();
  }

  /** The current content; the same object as last time when nothing changed. */
  snapshot(): MaterializedContent {
    const { changed, structural } = this.refreshPages();
    const pagesChanged = changed.size > 0;
    const filesChanged = this.refreshFiles();
    if (this.last && !pagesChanged && !filesChanged && !this.dirtyReusable && !this.dirtyVariables) return this.last;
    const prev = this.last;
    const tree =
      !prev || structural
        ? this.tree.rebuild(this.records)
        : pagesChanged
          ? this.tree.patch(this.records, changed)
          : prev;
    const files = filesChanged || !prev ? this.buildFiles() : prev;
    const reusable = this.dirtyReusable || !prev ? this.buildReusable() : prev;
    const variables = this.dirtyVariables || !prev ? readVariables(this.vars) : prev.variables;
    this.dirtyReusable = false;
    this.dirtyVariables = false;
    // The snapshot keeps its own copy: `records` moves on with later edits.
    if (pagesChanged || !prev) this.lastPageData = new Map(this.records);
    this.last = new MaterializedContent({
      pages: tree.pages,
      pageIndex: tree.pageIndex,
      pagesByPath: tree.pagesByPath,
      pageData: this.lastPageData,
      files: files.files,
      fileIndex: files.fileIndex,
      reusableContents: reusable.reusableContents,
      reusableMarkdown: reusable.reusableMarkdown,
      variables: Object.freeze(variables),
      analyze: (data) => this.analyze(data),
    });
    return this.last;
  }

  /**
   * Re-reads dirty pages into `records`; returns the ids whose data changed
   * and whether any change touched the structure (see PageTreeBuilder).
   */
  private refreshPages(): { changed: Set<string>; structural: boolean } {
    const changed = new Set<string>();
    let structural = false;
    for (const id of this.dirtyPages) {
      const map = childMap(this.pages, id);
      const old = this.records.get(id);
      const data = map && readPage(id, map);
      if (old && data && samePageData(old, data)) continue;
      if (!old && !data) continue;
      structural ||= this.tree.isStructural(old, data);
      if (data) this.records.set(id, data);
      else this.records.delete(id);
      changed.add(id);
    }
    this.dirtyPages.clear();
    return { changed, structural };
  }

  private refreshFiles(): boolean {
    let changed = false;
    for (const id of this.dirtyFiles) {
      const map = childMap(this.files, id);
      const data = map && readFile(id, map);
      if (!data) {
        changed = this.fileCache.delete(id) || changed;
        continue;
      }
      const old = this.fileCache.get(id);
      const file = presentFile(data);
      if (old && old.sha256 === data.sha256 && JSON.stringify(old.file) === JSON.stringify(file)) continue;
      this.fileCache.set(id, Object.freeze(data.sha256 ? { file, sha256: data.sha256 } : { file }));
      changed = true;
    }
    this.dirtyFiles.clear();
    return changed;
  }

  private buildFiles(): { files: readonly ApiFile[]; fileIndex: ReadonlyMap<string, FileInfo> } {
    const fileIndex = new Map(this.fileCache);
    const files = [...fileIndex.values()].map((f) => f.file);
    files.sort((a, b) => (a.name !== b.name ? (a.name < b.name ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { files: Object.freeze(files), fileIndex };
  }

  private buildReusable(): {
    reusableContents: readonly ApiReusableContent[];
    reusableMarkdown: ReadonlyMap<string, string>;
  } {
    const all: { id: string; title: string; markdown: string }[] = [];
    this.reusable.forEach((v, id) => v instanceof Y.Map && all.push(readReusable(id, v)));
    all.sort((a, b) => (a.title !== b.title ? (a.title < b.title ? -1 : 1) : a.id < b.id ? -1 : 1));
    return {
      reusableContents: Object.freeze(all.map(({ id, title }) => Object.freeze({ id, title }))),
      reusableMarkdown: new Map(all.map((r) => [r.id, r.markdown])),
    };
  }

  /**
   * Analysis of a page body, memoized per stored data object (so shared across snapshots).
   * Parsed on the calling thread: the server analyses pages in its parse pool instead
   * (search/indexer.ts); here, markdown over the limits is not parsed at all.
   */
  private analyze(data: PageData): MarkdownAnalysis {
    let analysis = this.analyses.get(data);
    if (!analysis) {
      try {
        analysis = checkMarkdownLimits(data.markdown)
          ? degradedAnalysis(data.markdown)
          : this.analyzeMarkdown(data.markdown);
      } catch (err) {
        if (this.analyzeMarkdown === noAnalyzer) throw err;
        // Pathological input (e.g. nesting deep enough to exhaust the stack)
        // must not break the snapshot for the whole space.
        analysis = EMPTY_ANALYSIS;
      }
      this.analyses.set(data, analysis);
    }
    return analysis;
  }
}
