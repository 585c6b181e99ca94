/**
 * Plain-data shapes of the content document (what `ContentDoc` reads and
 * writes) and of the materialized API objects (GitBook's RevisionPage*,
 * RevisionFile, RevisionReusableContent). Materialized objects are shared
 * between snapshots, hence `readonly` everywhere.
 */

import type { ComputedSource } from './computed';

/**
 * How a page is stored: a markdown document, a top-level group, a link to a
 * URL, or a computed page (its pages are generated from a source, computed.ts).
 */
export type PageKind = 'document' | 'group' | 'link' | 'computed';

/** GitBook's RevisionPageLayoutOptions (all keys required in the API object). */
export interface PageLayout {
  width: 'default' | 'wide';
  cover: boolean;
  coverSize: 'hero' | 'full' | 'background';
  coverMask: 'none' | 'radial';
  title: boolean;
  description: boolean;
  tableOfContents: boolean;
  outline: boolean;
  pagination: boolean;
  metadata: boolean;
  tags: boolean;
  actions: boolean;
  anchors: boolean;
}

/** One page as stored: raw parent pointer and order key, before tree resolution. */
export interface PageData {
  id: string;
  kind: PageKind;
  title: string;
  emoji?: string;
  icon?: string;
  slug: string;
  description?: string;
  /** Stored parent id (may be dangling or part of a cycle after concurrent edits). */
  parent: string | null;
  /** fractional-indexing key among siblings. */
  index: string;
  hidden: boolean;
  noIndex: boolean;
  /** Only the layout options that were set; the materializer fills the defaults. */
  layout: Partial<PageLayout>;
  createdAt?: string;
  updatedAt?: string;
  /** Target of a 'link' page. */
  href?: string;
  /** Adaptive-content condition: published sites show the page only to visitors who pass it. */
  condition?: string;
  /** Source of a 'computed' page (a computed page always has one: readPage makes it a document otherwise). */
  computed?: ComputedSource;
  markdown: string;
}

/** One file's metadata as stored (bytes are in the blob store under `sha256`). */
export interface FileMeta {
  name: string;
  contentType: string;
  size: number;
  width?: number;
  height?: number;
  sha256?: string;
}

/** A file with its id. */
export interface FileData extends FileMeta {
  id: string;
}

/** A reusable content as stored. */
export interface ReusableContentData {
  id: string;
  title: string;
  markdown: string;
}

/** GitBook ContentRef of kind url (the target of link pages). */
export interface UrlRef {
  kind: 'url';
  url: string;
}

/** Fields every materialized page has (RevisionPageBase + what Folio always sets). */
interface ApiPageBase {
  readonly id: string;
  readonly title: string;
  readonly emoji?: string;
  readonly icon?: string;
  readonly createdAt?: string;
  readonly updatedAt?: string;
  readonly hidden: boolean;
  /** GitBook's RevisionPageBase.condition: present only when the page has one. */
  readonly condition?: string;
}

/** RevisionPageDocument (without `urls`, which the server adds). */
export interface ApiPageDocument extends ApiPageBase {
  /** GitBook's deprecated kind for documents is 'sheet'. */
  readonly kind: 'sheet';
  readonly type: 'document';
  readonly slug: string;
  readonly path: string;
  readonly description?: string;
  readonly markdown: string;
  readonly noIndex: boolean;
  readonly layout: Readonly<PageLayout>;
  readonly tags: readonly never[];
  readonly pages: readonly ApiPage[];
}

/** RevisionPageGroup. Groups only exist at the root of the tree. */
export interface ApiPageGroup extends ApiPageBase {
  readonly kind: 'group';
  readonly type: 'group';
  readonly slug: string;
  readonly path: string;
  readonly noIndex: boolean;
  readonly pages: readonly ApiPage[];
}

/** RevisionPageLink. Link pages have no children, slug or path in GitBook's API. */
export interface ApiPageLink extends ApiPageBase {
  readonly kind: 'link';
  readonly type: 'link';
  readonly target: Readonly<UrlRef>;
  readonly href: string;
}

/**
 * RevisionPageComputed, as stored in revisions and returned with `computed=false`. It keeps a slug
 * and path (Folio's additions): the pages it expands to live under that path.
 */
export interface ApiPageComputed extends ApiPageBase {
  readonly kind: 'computed';
  readonly type: 'computed';
  readonly slug: string;
  readonly path: string;
  readonly computed: Readonly<ComputedSource>;
  readonly pages: readonly ApiPage[];
}

/** A materialized page (GitBook RevisionPage minus `urls`). */
export type ApiPage = ApiPageDocument | ApiPageGroup | ApiPageLink | ApiPageComputed;

/** RevisionFile without `downloadURL` (the server adds it). */
export interface ApiFile {
  readonly id: string;
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
  readonly dimensions?: { readonly width: number; readonly height: number };
}

/** RevisionReusableContent. */
export interface ApiReusableContent {
  readonly id: string;
  readonly title: string;
}
