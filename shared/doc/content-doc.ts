import * as Y from 'yjs';
import { EMOJI_PATTERN } from '../emoji';
import { slugify, uniqueSlug } from '../markdown/slug';
import { ContentAssets } from './content-assets';
import { readComputedSource, type ComputedSource } from './computed';
import { isValidEntityId, newEntityId } from './ids';
import { PAGE, childMap, pagesRoot } from './keys';
import { placeAmong, type SiblingPosition } from './order';
import {
  checkParent,
  ContentDocError,
  hasChildren,
  isSelfOrDescendant,
  requirePage,
  siblingsOf,
  subtreeOf,
} from './page-ops';
import { readBody, readKind, readLayout, readPage } from './read';
import { setTextMinimal } from './text-diff';
import type { PageData, PageKind, PageLayout } from './types';

export { ContentDocError } from './page-ops';

/** Options of a ContentDoc. */
export interface ContentDocOptions {
  /** Clock for createdAt/updatedAt (tests and the server inject theirs). */
  now?: () => Date;
  /** Transaction origin of every write, so observers can tell REST writes from socket ones. */
  origin?: unknown;
}

/** Input of createPage. `before`/`after` are sibling ids under `parent`; neither = append. */
export interface CreatePageInput extends SiblingPosition {
  id?: string;
  title: string;
  kind?: PageKind;
  parent?: string | null;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  markdown?: string;
  href?: string;
  hidden?: boolean;
  noIndex?: boolean;
  layout?: Partial<PageLayout>;
  /** Adaptive-content condition ('' or absent: none); the API checks its grammar before it gets here. */
  condition?: string;
  /** Source of a 'computed' page (required for that kind, computed.ts). */
  computed?: ComputedSource;
}

/** Fields updatePage can change; null clears an optional field. Moves go through movePage. */
export interface PagePatch {
  title?: string;
  slug?: string;
  emoji?: string | null;
  icon?: string | null;
  description?: string | null;
  href?: string;
  hidden?: boolean;
  noIndex?: boolean;
  /** Adaptive-content condition; '' or null removes it. */
  condition?: string | null;
  /** Merged into the stored layout (unset keys keep their value). */
  layout?: Partial<PageLayout>;
  kind?: PageKind;
  /** A computed page's new source. */
  computed?: ComputedSource;
}

/** Destination of movePage. */
export interface MoveTarget extends SiblingPosition {
  parent: string | null;
}

const MAX_SHORT_FIELD = 50;

/** The normalized source, or an error naming what is wrong. */
function checkComputed(source: ComputedSource | undefined): ComputedSource {
  const valid = readComputedSource(source);
  if (!valid)
    throw new ContentDocError(
      'invalid',
      'computed pages need a source: {type: "builtin:openapi", dependencies: {spec: {ref: {kind: "openapi", spec: <slug>}}}, props: {models}}',
    );
  return valid;
}

/**
 * Typed accessor over a space's (or change request's) content Y.Doc: every
 * operation the app performs on pages, files, variables and reusable
 * contents, each in a single transaction so it syncs as one update. Reads
 * return plain data; writes validate against the raw stored graph (the
 * materializer handles what concurrent edits can still produce).
 * Files, variables and reusable contents are inherited from ContentAssets.
 */
export class ContentDoc extends ContentAssets {
  /** @param ydoc the content document; it is not owned (never destroyed) by this accessor. */
  constructor(ydoc: Y.Doc, options: ContentDocOptions = {}) {
    super(ydoc, options.now ?? (() => new Date()), options.origin ?? null);
  }

  private get pages(): Y.Map<unknown> {
    return pagesRoot(this.ydoc);
  }

  /** Ids of every stored page (unordered). */
  listPageIds(): string[] {
    const ids: string[] = [];
    this.pages.forEach((v, id) => v instanceof Y.Map && ids.push(id));
    return ids;
  }

  /** Whether the page exists. */
  hasPage(id: string): boolean {
    return childMap(this.pages, id) !== undefined;
  }

  /** The stored page as plain data, or undefined. */
  getPage(id: string): PageData | undefined {
    const map = childMap(this.pages, id);
    return map && readPage(id, map);
  }

  /**
   * Creates a page and returns its id (random unless `id` is given).
   * The slug defaults to the slugified title and is made unique among siblings.
   * @throws ContentDocError invalid input, unknown parent/sibling, or an id already in use.
   */
  createPage(input: CreatePageInput): string {
    const id = input.id ?? newEntityId();
    if (!isValidEntityId(id)) throw new ContentDocError('invalid', `invalid page id "${id}"`);
    const kind = input.kind ?? 'document';
    const parent = input.parent ?? null;
    const title = checkTitle(input.title);
    this.transact(() => {
      const pages = this.pages;
      if (pages.has(id)) throw new ContentDocError('conflict', `page "${id}" already exists`);
      checkParent(pages, kind, parent);
      if (kind === 'link' && !input.href) throw new ContentDocError('invalid', 'link pages need an href');
      const computed = kind === 'computed' ? checkComputed(input.computed) : undefined;
      const siblings = siblingsOf(pages, parent);
      const base = (input.slug !== undefined ? requireSlug(input.slug) : slugify(title)) || 'page';
      const slug = uniqueSlug(base, (s) => siblings.some((x) => x.slug === s));
      const { index, rekeyed } = place(siblings, input);
      const at = this.stamp();
      const map = new Y.Map<unknown>();
      const fields: Record<string, unknown> = {
        [PAGE.title]: title,
        [PAGE.kind]: kind,
        [PAGE.slug]: slug,
        [PAGE.parent]: parent,
        [PAGE.index]: index,
      };
      Object.assign(fields, {
        [PAGE.hidden]: input.hidden ?? false,
        [PAGE.noIndex]: input.noIndex ?? false,
        [PAGE.createdAt]: at,
        [PAGE.updatedAt]: at,
      });
      if (input.layout) fields[PAGE.layout] = readLayout(input.layout);
      if (input.emoji) fields[PAGE.emoji] = checkEmoji(input.emoji);
      if (input.icon) fields[PAGE.icon] = checkShort('icon', input.icon);
      if (input.description) fields[PAGE.description] = input.description;
      if (input.href) fields[PAGE.href] = input.href;
      if (input.condition) fields[PAGE.condition] = checkCondition(input.condition);
      if (computed) fields[PAGE.computed] = computed;
      for (const [k, v] of Object.entries(fields)) map.set(k, v);
      map.set(PAGE.body, new Y.Text(input.markdown ?? ''));
      pages.set(id, map);
      applyRekey(pages, rekeyed);
    });
    return id;
  }

  /**
   * Changes page fields (title, slug, emoji, ...). Changing the title keeps
   * the slug (links and URLs stay valid); set `slug` to change it.
   * @throws ContentDocError unknown page, invalid value, slug taken by a sibling, impossible kind change.
   */
  updatePage(id: string, patch: PagePatch): void {
    this.transact(() => {
      const pages = this.pages;
      const map = requirePage(pages, id);
      const updates: Record<string, unknown> = {};
      if (patch.title !== undefined) updates[PAGE.title] = checkTitle(patch.title);
      if (patch.slug !== undefined) {
        const slug = requireSlug(patch.slug);
        const parent = readPage(id, map).parent;
        if (siblingsOf(pages, parent, id).some((s) => s.slug === slug))
          throw new ContentDocError('conflict', `slug "${slug}" is already used by a sibling page`);
        updates[PAGE.slug] = slug;
      }
      if (patch.emoji !== undefined) updates[PAGE.emoji] = patch.emoji === null ? undefined : checkEmoji(patch.emoji);
      if (patch.icon !== undefined)
        updates[PAGE.icon] = patch.icon === null ? undefined : checkShort('icon', patch.icon);
      if (patch.description !== undefined) updates[PAGE.description] = patch.description ?? undefined;
      if (patch.href !== undefined) updates[PAGE.href] = patch.href;
      if (patch.hidden !== undefined) updates[PAGE.hidden] = patch.hidden;
      if (patch.noIndex !== undefined) updates[PAGE.noIndex] = patch.noIndex;
      if (patch.condition !== undefined)
        updates[PAGE.condition] = patch.condition ? checkCondition(patch.condition) : undefined;
      if (patch.layout !== undefined)
        updates[PAGE.layout] = { ...readLayout(map.get(PAGE.layout)), ...readLayout(patch.layout) };
      if (patch.kind !== undefined && patch.kind !== readKind(map)) {
        const parent = readPage(id, map).parent;
        checkParent(pages, patch.kind, parent);
        if (patch.kind === 'link' && hasChildren(pages, id))
          throw new ContentDocError('invalid', 'a page with child pages cannot become a link');
        if (patch.kind === 'link' && !(patch.href ?? map.get(PAGE.href)))
          throw new ContentDocError('invalid', 'link pages need an href');
        if (patch.kind === 'computed' && hasChildren(pages, id))
          throw new ContentDocError('invalid', 'a page with child pages cannot become a computed page');
        if (patch.kind === 'computed' && !patch.computed && !readComputedSource(map.get(PAGE.computed)))
          throw new ContentDocError('invalid', 'computed pages need a source');
        updates[PAGE.kind] = patch.kind;
      }
      if (patch.computed !== undefined) updates[PAGE.computed] = checkComputed(patch.computed);
      for (const [k, v] of Object.entries(updates)) {
        if (v === undefined) map.delete(k);
        else map.set(k, v);
      }
      map.set(PAGE.updatedAt, this.stamp());
    });
  }

  /** Sets updatedAt to now — for editors that change the body Y.Text directly. */
  touchPage(id: string): void {
    this.transact(() => requirePage(this.pages, id).set(PAGE.updatedAt, this.stamp()));
  }

  /** The page's body Y.Text (created on first use for pages stored without one). */
  pageBody(id: string): Y.Text {
    const map = requirePage(this.pages, id);
    const body = map.get(PAGE.body);
    if (body instanceof Y.Text) return body;
    const text = new Y.Text();
    this.transact(() => map.set(PAGE.body, text));
    return text;
  }

  /** The page's markdown ('' when it has no body). A read never writes, unlike pageBody. */
  getMarkdown(id: string): string {
    return readBody(requirePage(this.pages, id));
  }

  /**
   * Replaces the page's markdown by editing only the span that differs, so
   * concurrent edits elsewhere in the text merge instead of being overwritten.
   */
  setMarkdown(id: string, markdown: string): void {
    const body = this.pageBody(id);
    this.transact(() => {
      if (setTextMinimal(body, markdown)) requirePage(this.pages, id).set(PAGE.updatedAt, this.stamp());
    });
  }

  /**
   * Moves a page (and its subtree) under `parent` at the given position. The
   * slug is made unique among the new siblings.
   * @throws ContentDocError unknown page/parent/sibling, or a move under itself or a descendant.
   */
  movePage(id: string, target: MoveTarget): void {
    this.transact(() => {
      const pages = this.pages;
      const map = requirePage(pages, id);
      const parent = target.parent;
      if (isSelfOrDescendant(pages, id, parent))
        throw new ContentDocError('invalid', 'a page cannot be moved under itself or one of its descendants');
      checkParent(pages, readKind(map), parent);
      const siblings = siblingsOf(pages, parent, id);
      const { index, rekeyed } = place(siblings, target);
      const current = readPage(id, map);
      if (current.parent !== parent) {
        map.set(PAGE.parent, parent);
        const slug = uniqueSlug(current.slug || 'page', (s) => siblings.some((x) => x.slug === s));
        if (slug !== current.slug) map.set(PAGE.slug, slug);
      }
      map.set(PAGE.index, index);
      applyRekey(pages, rekeyed);
      map.set(PAGE.updatedAt, this.stamp());
    });
  }

  /** Deletes a page and every page below it; returns the deleted ids (none when it did not exist). */
  deletePage(id: string): string[] {
    let deleted: string[] = [];
    this.transact(() => {
      if (!this.pages.has(id)) return;
      deleted = subtreeOf(this.pages, id);
      for (const d of deleted) this.pages.delete(d);
    });
    return deleted;
  }
}

function place(siblings: ReturnType<typeof siblingsOf>, pos: SiblingPosition) {
  try {
    return placeAmong(siblings, pos);
  } catch (err) {
    throw new ContentDocError('invalid', (err as Error).message);
  }
}

function applyRekey(pages: Y.Map<unknown>, rekeyed: Map<string, string>): void {
  for (const [sibling, key] of rekeyed) childMap(pages, sibling)?.set(PAGE.index, key);
}

function checkTitle(title: string): string {
  if (typeof title !== 'string' || title.trim() === '')
    throw new ContentDocError('invalid', 'a page needs a non-empty title');
  return title;
}

function requireSlug(raw: string): string {
  const slug = slugify(raw);
  if (slug === '') throw new ContentDocError('invalid', `invalid slug "${raw}"`);
  return slug;
}

function checkShort(field: string, value: string): string {
  if (value.length > MAX_SHORT_FIELD)
    throw new ContentDocError('invalid', `${field} is longer than ${MAX_SHORT_FIELD} characters`);
  return value;
}

/** Longest page condition kept (the API's limit too). */
export const MAX_CONDITION_LENGTH = 2048;

function checkCondition(condition: string): string {
  if (condition.length > MAX_CONDITION_LENGTH)
    throw new ContentDocError('invalid', `condition is longer than ${MAX_CONDITION_LENGTH} characters`);
  return condition;
}

function checkEmoji(emoji: string): string {
  if (!EMOJI_PATTERN.test(checkShort('emoji', emoji))) throw new ContentDocError('invalid', `invalid emoji "${emoji}"`);
  return emoji;
}
