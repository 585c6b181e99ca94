import type { MarkdownAnalysis, MarkdownLink } from '../markdown/analyze';
import { createLinkTargets, resolveLink, type LinkTargets, type ResolvedLink } from '../markdown/links';
import type { ApiFile, ApiPage, ApiReusableContent, PageData } from './types';

/** Where a page sits in a snapshot's tree. */
export interface PageInfo {
  readonly page: ApiPage;
  /** Effective parent (after dangling/cycle resolution); null at the root. */
  readonly parentId: string | null;
  /**
   * Slugs joined by '/' from the root (groups included). Link pages have no
   * path in the API; theirs is where they would sit and is not addressable.
   */
  readonly path: string;
}

/** A file's API object plus what the server needs to serve its bytes. */
export interface FileInfo {
  readonly file: ApiFile;
  readonly sha256?: string;
}

/** A link of a page together with what it resolves to in the same snapshot. */
export interface ResolvedPageLink {
  readonly link: MarkdownLink;
  readonly resolved: ResolvedLink;
}

/** Everything a snapshot needs, computed by the Materializer. */
export interface SnapshotParts {
  pages: readonly ApiPage[];
  pageIndex: ReadonlyMap<string, PageInfo>;
  pagesByPath: ReadonlyMap<string, string>;
  pageData: ReadonlyMap<string, PageData>;
  files: readonly ApiFile[];
  fileIndex: ReadonlyMap<string, FileInfo>;
  reusableContents: readonly ApiReusableContent[];
  reusableMarkdown: ReadonlyMap<string, string>;
  variables: Readonly<Record<string, string>>;
  analyze: (data: PageData) => MarkdownAnalysis;
}

/**
 * An immutable materialized view of a content document at one moment: the
 * page tree as GitBook API objects, indexes over it, files, reusable
 * contents, variables, and per-page analysis (links, sections) computed on
 * first use and shared with later snapshots while the page is unchanged.
 * Never mutate anything reachable from it: objects are shared across snapshots.
 */
export class MaterializedContent {
  /** Top-level pages, each with its `pages` children (the API tree). */
  readonly pages: readonly ApiPage[];
  /** Every page by id, with its effective parent and path. */
  readonly pageIndex: ReadonlyMap<string, PageInfo>;
  /** Document and group pages by path. */
  readonly pagesByPath: ReadonlyMap<string, string>;
  /** Files sorted by name then id, without downloadURL. */
  readonly files: readonly ApiFile[];
  /** Files by id, with their blob hash. */
  readonly fileIndex: ReadonlyMap<string, FileInfo>;
  /** Reusable contents sorted by title then id. */
  readonly reusableContents: readonly ApiReusableContent[];
  /** Markdown of each reusable content by id. */
  readonly reusableMarkdown: ReadonlyMap<string, string>;
  /** Variables, keys sorted. */
  readonly variables: Readonly<Record<string, string>>;
  private readonly pageData: ReadonlyMap<string, PageData>;
  private readonly analyze: (data: PageData) => MarkdownAnalysis;
  private targets: LinkTargets | undefined;

  /** Built by Materializer.snapshot(); not meant to be constructed elsewhere. */
  constructor(parts: SnapshotParts) {
    this.pages = parts.pages;
    this.pageIndex = parts.pageIndex;
    this.pagesByPath = parts.pagesByPath;
    this.pageData = parts.pageData;
    this.files = parts.files;
    this.fileIndex = parts.fileIndex;
    this.reusableContents = parts.reusableContents;
    this.reusableMarkdown = parts.reusableMarkdown;
    this.variables = parts.variables;
    this.analyze = parts.analyze;
  }

  /** Links and sections of a document page's markdown (undefined for unknown ids and non-document pages). */
  analysis(pageId: string): MarkdownAnalysis | undefined {
    const data = this.pageData.get(pageId);
    return data && data.kind === 'document' ? this.analyze(data) : undefined;
  }

  /** Lookups for resolveLink over this snapshot (built once, on first use). */
  linkTargets(): LinkTargets {
    if (!this.targets) {
      const pages = [...this.pageIndex.values()]
        .filter((i) => i.page.type !== 'link')
        .map((i) => ({
          id: i.page.id,
          path: i.path,
          hasChildren: 'pages' in i.page && i.page.pages.length > 0,
          group: i.page.type === 'group',
        }));
      this.targets = createLinkTargets(pages, this.files);
    }
    return this.targets;
  }

  /** The page's links, each resolved against this snapshot (broken links have kind 'broken'). */
  resolvedLinks(pageId: string): ResolvedPageLink[] | undefined {
    const analysis = this.analysis(pageId);
    const info = this.pageIndex.get(pageId);
    if (!analysis || !info) return undefined;
    const targets = this.linkTargets();
    return analysis.links.map((link) => ({ link, resolved: resolveLink(info.path, link.href, targets) }));
  }
}
