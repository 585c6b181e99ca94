import { EMOJI_PATTERN } from '../emoji';
import type {
  ApiFile,
  ApiPage,
  ApiPageComputed,
  ApiPageDocument,
  ApiPageGroup,
  ApiPageLink,
  FileData,
  PageData,
  PageLayout,
} from './types';

/**
 * Builds the frozen API objects of a snapshot from stored plain data. The
 * objects are shared by every later snapshot in which they did not change
 * (and by the server's revisions), so they are frozen: a consumer that
 * mutated one would silently change other revisions.
 */

/** GitBook's layout defaults (a new page in the app shows everything, default width, hero cover). */
export const DEFAULT_LAYOUT: Readonly<PageLayout> = Object.freeze({
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
});

/** The shared empty `pages` / `tags` array (one frozen instance, so leaves compare equal by identity). */
export const NO_PAGES: readonly ApiPage[] = Object.freeze([]);
const NO_TAGS: readonly never[] = Object.freeze([]);

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/** Optional base fields, dropped when a peer stored something GitBook's schema would reject. */
function base(data: PageData) {
  const out: {
    id: string;
    title: string;
    emoji?: string;
    icon?: string;
    createdAt?: string;
    updatedAt?: string;
    condition?: string;
  } = {
    id: data.id,
    // GitBook requires a non-empty title; a peer may have stored ''.
    title: data.title.trim() === '' ? 'Untitled' : data.title,
  };
  if (data.emoji && data.emoji.length <= 50 && EMOJI_PATTERN.test(data.emoji)) out.emoji = data.emoji;
  if (data.icon && data.icon.length <= 50) out.icon = data.icon;
  if (data.createdAt && ISO.test(data.createdAt)) out.createdAt = data.createdAt;
  if (data.updatedAt && ISO.test(data.updatedAt)) out.updatedAt = data.updatedAt;
  if (data.condition) out.condition = data.condition;
  return out;
}

/** The layout with defaults filled in; the shared default object when nothing was set. */
function layoutOf(data: PageData): Readonly<PageLayout> {
  return Object.keys(data.layout).length === 0 ? DEFAULT_LAYOUT : Object.freeze({ ...DEFAULT_LAYOUT, ...data.layout });
}

/**
 * The API object of one page (GitBook RevisionPage minus `urls`), given its
 * resolved slug, path and already-built children.
 */
export function presentPage(data: PageData, slug: string, path: string, pages: readonly ApiPage[]): ApiPage {
  const common = base(data);
  switch (data.kind) {
    case 'group': {
      const group: ApiPageGroup = {
        ...common,
        kind: 'group',
        type: 'group',
        slug,
        path,
        hidden: data.hidden,
        noIndex: data.noIndex,
        pages,
      };
      return Object.freeze(group);
    }
    case 'link': {
      const href = data.href ?? '';
      const link: ApiPageLink = {
        ...common,
        kind: 'link',
        type: 'link',
        target: Object.freeze({ kind: 'url', url: href }),
        href,
        hidden: data.hidden,
      };
      return Object.freeze(link);
    }
    case 'computed': {
      // readPage never gives a computed page without a source; without one it presents as a document.
      if (!data.computed) return presentDocument(common, data, slug, path, pages);
      const computed: ApiPageComputed = {
        ...common,
        kind: 'computed',
        type: 'computed',
        slug,
        path,
        computed: data.computed,
        hidden: data.hidden,
        pages: NO_PAGES,
      };
      return Object.freeze(computed);
    }
    default:
      return presentDocument(common, data, slug, path, pages);
  }
}

function presentDocument(
  common: ReturnType<typeof base>,
  data: PageData,
  slug: string,
  path: string,
  pages: readonly ApiPage[],
): ApiPageDocument {
  const doc: ApiPageDocument = {
    ...common,
    kind: 'sheet',
    type: 'document',
    slug,
    path,
    ...(data.description ? { description: data.description } : {}),
    markdown: data.markdown,
    hidden: data.hidden,
    noIndex: data.noIndex,
    layout: layoutOf(data),
    tags: NO_TAGS,
    pages,
  };
  return Object.freeze(doc);
}

/** The API object of one file (RevisionFile minus `downloadURL`). */
export function presentFile(file: FileData): ApiFile {
  const out: { -readonly [K in keyof ApiFile]: ApiFile[K] } = {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    size: file.size,
  };
  if (file.width !== undefined && file.height !== undefined)
    out.dimensions = Object.freeze({ width: file.width, height: file.height });
  return Object.freeze(out);
}
