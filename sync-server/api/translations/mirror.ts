import * as Y from 'yjs';
import { ContentDoc, resolveTree, type FileData, type PageData } from '../../../shared/doc';

/**
 * The result space of a translation mirrors its source: the same page ids, tree, order, slugs,
 * settings and files (so `/pages/<id>` and `/files/<id>` links resolve the same in both, and every
 * page has the same path in every language), with translated titles, descriptions and bodies.
 * This file reads a content document as that mirror needs it, and applies a mirror to one.
 */

/** A content document's pages, parents first and siblings in order, with their effective parents. */
export interface ContentSnapshot {
  pages: (PageData & { parent: string | null })[];
  files: FileData[];
}

export function readContent(doc: Y.Doc): ContentSnapshot {
  const content = new ContentDoc(doc);
  const byId = new Map<string, PageData>();
  for (const id of content.listPageIds()) {
    const page = content.getPage(id);
    if (page) byId.set(id, page);
  }
  const tree = resolveTree(byId);
  const pages: ContentSnapshot['pages'] = [];
  const visit = (ids: readonly string[], parent: string | null) => {
    for (const id of ids) {
      pages.push({ ...byId.get(id)!, parent });
      visit(tree.children.get(id) ?? [], id);
    }
  };
  visit(tree.roots, null);
  return { pages, files: content.listFiles() };
}

/** The translated text of a page. */
export interface PageText {
  title: string;
  description?: string;
  markdown?: string;
}

export interface MirrorPlan {
  source: ContentSnapshot;
  /** New text of the pages to write; a page not here keeps its current text (or the source's, when new). */
  texts: ReadonlyMap<string, PageText>;
  /** Result pages edited by hand: their text is left alone, and they are not deleted when the source drops them. */
  keep: ReadonlySet<string>;
}

export interface MirrorOutcome {
  created: number;
  deleted: number;
  /** Pages the source no longer has, kept in the result because they were edited there. */
  keptOrphans: string[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields the mirror copies as they are from the source (everything but the text and the place). */
function settingsPatch(source: PageData, result: PageData) {
  const patch: Parameters<ContentDoc['updatePage']>[1] = {};
  if (source.emoji !== result.emoji) patch.emoji = source.emoji ?? null;
  if (source.icon !== result.icon) patch.icon = source.icon ?? null;
  if (source.hidden !== result.hidden) patch.hidden = source.hidden;
  if (source.noIndex !== result.noIndex) patch.noIndex = source.noIndex;
  if (source.href !== undefined && source.href !== result.href) patch.href = source.href;
  if (source.condition !== result.condition) patch.condition = source.condition ?? null;
  if (!same(source.layout, result.layout)) patch.layout = source.layout;
  if (source.computed && !same(source.computed, result.computed)) patch.computed = source.computed;
  if (source.kind !== result.kind) patch.kind = source.kind;
  return patch;
}

const textPatch = (text: PageText) => ({ title: text.title, description: text.description ?? null });

/**
 * Makes `doc` mirror the plan: files, then pages parents first (created with their source id, or
 * moved and updated), then sibling order, then pages the source no longer has are deleted, then
 * slugs settled. Runs inside one transaction of the caller (hub.change); it throws on a state it
 * cannot mirror — the caller tries it on a copy first, since Yjs cannot roll back.
 */
export function applyMirror(doc: Y.Doc, plan: MirrorPlan, now: () => Date): MirrorOutcome {
  const content = new ContentDoc(doc, { now });
  const { source, texts, keep } = plan;
  const outcome: MirrorOutcome = { created: 0, deleted: 0, keptOrphans: [] };

  const sourceFiles = new Set(source.files.map((f) => f.id));
  for (const file of source.files) {
    const { id, ...meta } = file;
    const current = content.getFile(id);
    if (!current || !same({ ...current, id: undefined }, { ...meta, id: undefined })) content.putFile(id, meta);
  }
  for (const file of content.listFiles()) if (!sourceFiles.has(file.id)) content.deleteFile(file.id);

  for (const page of source.pages) {
    const text = keep.has(page.id) ? undefined : texts.get(page.id);
    const current = content.getPage(page.id);
    if (!current) {
      content.createPage({
        id: page.id,
        kind: page.kind,
        parent: page.parent,
        title: text?.title ?? page.title,
        slug: page.slug,
        ...(page.emoji ? { emoji: page.emoji } : {}),
        ...(page.icon ? { icon: page.icon } : {}),
        ...((text ? text.description : page.description)
          ? { description: text ? text.description : page.description }
          : {}),
        markdown: text?.markdown ?? page.markdown,
        ...(page.href ? { href: page.href } : {}),
        hidden: page.hidden,
        noIndex: page.noIndex,
        layout: page.layout,
        ...(page.condition ? { condition: page.condition } : {}),
        ...(page.computed ? { computed: page.computed } : {}),
      });
      outcome.created++;
      continue;
    }
    const patch = settingsPatch(page, current);
    // A group lives at the root: it moves there before becoming one; anything else changes kind first.
    if (patch.kind === 'group') moveIfNeeded(content, current, page.parent);
    if (Object.keys(patch).length > 0) content.updatePage(page.id, patch);
    moveIfNeeded(content, content.getPage(page.id)!, page.parent);
    if (text) {
      content.updatePage(page.id, textPatch(text));
      if (page.kind === 'document' && text.markdown !== undefined) content.setMarkdown(page.id, text.markdown);
    }
  }

  orderSiblings(content, doc, source);

  const inSource = new Set(source.pages.map((p) => p.id));
  const current = readContent(doc);
  // Children first, so a kept page's stale parent is not deleted with it as its subtree.
  for (const page of [...current.pages].reverse()) {
    if (inSource.has(page.id)) continue;
    if (keep.has(page.id)) {
      outcome.keptOrphans.push(page.id);
      continue;
    }
    if (current.pages.some((p) => p.parent === page.id && content.hasPage(p.id))) {
      outcome.keptOrphans.push(page.id);
      continue;
    }
    outcome.deleted += content.deletePage(page.id).length;
  }

  // A slug taken by a page deleted above is free now.
  for (const page of source.pages) {
    const now = content.getPage(page.id);
    if (now && now.slug !== page.slug) {
      try {
        content.updatePage(page.id, { slug: page.slug });
      } catch {
        // Still taken by a kept page: the mirror keeps the unique slug it got.
      }
    }
  }
  return outcome;
}

function moveIfNeeded(content: ContentDoc, current: PageData, parent: string | null): void {
  if (current.parent !== parent) content.movePage(current.id, { parent });
}

/** Puts each source parent's children in the source's order (appending them in turn; only where it differs). */
function orderSiblings(content: ContentDoc, doc: Y.Doc, source: ContentSnapshot): void {
  const wanted = childrenOf(source);
  const actual = childrenOf(readContent(doc));
  for (const [parent, ids] of wanted) {
    const now = (actual.get(parent) ?? []).filter((id) => ids.includes(id));
    if (same(now, ids)) continue;
    for (const id of ids) content.movePage(id, { parent });
  }
}

function childrenOf(snapshot: ContentSnapshot): Map<string | null, string[]> {
  const out = new Map<string | null, string[]>();
  for (const p of snapshot.pages) out.set(p.parent, [...(out.get(p.parent) ?? []), p.id]);
  return out;
}

/** Applies the plan to a copy of `doc` first: throws, touching nothing, when it would not apply. */
export function trialMirror(doc: Y.Doc, plan: MirrorPlan, now: () => Date): void {
  const copy = new Y.Doc({ gc: false });
  try {
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(doc));
    copy.transact(() => applyMirror(copy, plan, now));
  } finally {
    copy.destroy();
  }
}
