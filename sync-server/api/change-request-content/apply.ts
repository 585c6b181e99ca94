import { readComputedSource } from '../../../shared/doc/computed';
import * as Y from 'yjs';
import { ContentDoc, ContentDocError, newEntityId, type PageData } from '../../../shared/doc';
import { siblingsOf } from '../../../shared/doc/page-ops';
import { pagesRoot } from '../../../shared/doc/keys';
import { replaceText, type EditsFor } from '../../../shared/doc/replace-text';
import type { JSONDocument } from '../../../shared/markdown/document-types';
import { documentToMarkdown } from './document-markdown';
import type { FileMeta } from '../../../shared/doc/types';
import { readMarkdownMeta } from './markdown-meta';
import { pagePaths, resolveBatchLinks, type BatchRefs } from './links';
import type { ContentChange, PageDocument, PageFields } from './schemas';
import { BatchError } from './apply-error';
import { applyBlockRevert, type BlockRevertPlan } from './revert-blocks';

export { BatchError } from './apply-error';

/**
 * updateChangeRequestContent as pure CRDT edits of a content Y.Doc: each
 * change goes through ContentDoc (the same operations the editor uses), page
 * bodies are changed with a word-level diff (replaceText), never replaced, so
 * a writer typing in another paragraph of the same page keeps every keystroke.
 *
 * Atomicity: `applyBatchAtomically` runs the batch on a copy first; only when
 * every change succeeded does it run again on the real document. Ids of new
 * pages and files are chosen up front (`planBatch`), so both runs agree.
 */

/** A file of an insert_files change, already fetched/decoded and stored in the blob store. */
export interface PreparedFile {
  id: string;
  ref?: string;
  meta: FileMeta;
}

/** A page as it was in an older revision (what revert_page restores), or, for the `block` form, what to replace. */
export interface RevertSource {
  page?: PageData;
  blocks?: BlockRevertPlan;
}

/** Everything decided before touching a document: new ids, refs, stored files, revert sources. */
export interface BatchPlan {
  /** Page id of each insert_page, by change index. */
  newPages: Map<number, string>;
  refs: BatchRefs;
  /** Files of each insert_files change, by change index. */
  files: Map<number, PreparedFile[]>;
  /** What each revert_page restores, by change index. */
  reverts: Map<number, RevertSource>;
}

/** What happened to one page (GitBook's ChangeRequestContentUpdateChange, without URLs). */
export type PageOutcome =
  | { object: 'created_page'; page: string; ref?: string }
  | { object: 'updated_page'; page: string }
  | { object: 'deleted_page'; page: string };

/** Chooses the ids of new pages and collects refs; rejects duplicate refs. Files are added by the caller. */
export function planBatch(changes: readonly ContentChange[]): BatchPlan {
  const plan: BatchPlan = {
    newPages: new Map(),
    refs: { pages: new Map(), files: new Map() },
    files: new Map(),
    reverts: new Map(),
  };
  const seen = new Set<string>();
  const claim = (ref: string, field: string) => {
    if (seen.has(ref)) throw new BatchError(400, `${field}: ref "${ref}" is used twice in this batch`);
    seen.add(ref);
  };
  changes.forEach((change, i) => {
    if (change.operation === 'insert_page') {
      const id = newEntityId();
      plan.newPages.set(i, id);
      if (change.ref !== undefined) {
        claim(change.ref, `body.changes[${i}].ref`);
        plan.refs.pages.set(change.ref.replace(/^\.\//, '').replace(/\.md$/, ''), id);
      }
    }
    if (change.operation === 'insert_files')
      change.files.forEach((f, j) => {
        if (f.ref !== undefined) claim(f.ref, `body.changes[${i}].files[${j}].ref`);
      });
  });
  return plan;
}

function markdownOf(document: PageDocument): string {
  if ('markdown' in document) return document.markdown;
  try {
    return documentToMarkdown(document as unknown as JSONDocument);
  } catch {
    // A structurally broken node tree (a null node, `nodes` that is not a list…) is the caller's error.
    throw new ContentDocError('invalid', 'document is not a valid GitBook JSON document');
  }
}

/** Fields for the page: the change's own, overridden by what a markdown document's front matter/heading says. */
function fieldsOf(change: PageFields & { document?: PageDocument }): { fields: PageFields; body?: string } {
  const fields: PageFields = { ...change };
  if (!change.document) return { fields };
  if (!('markdown' in change.document)) return { fields, body: markdownOf(change.document) };
  const meta = readMarkdownMeta(change.document.markdown);
  if (meta.title !== undefined) fields.title = meta.title;
  if (meta.description !== undefined) fields.description = meta.description;
  if (meta.icon !== undefined) fields.icon = meta.icon;
  if (meta.emoji !== undefined) fields.emoji = meta.emoji;
  if (meta.hidden !== undefined) fields.hidden = meta.hidden;
  return { fields, body: meta.body };
}

/** before/after for a zero-based index among the siblings of `parent` (excluding `self`); past the end = append. */
function positionAt(doc: Y.Doc, parent: string | null, at: number | undefined, self?: string) {
  if (at === undefined) return {};
  const siblings = siblingsOf(pagesRoot(doc), parent, self);
  return at < siblings.length ? { before: siblings[at]!.id } : {};
}

const emptyToNull = (v: string | undefined) => (v === undefined ? undefined : v === '' ? null : v);

/** How one run of a batch changes page bodies. */
export interface BatchRun {
  /** The edits of each body (default textEdits: a word diff on this thread). */
  editsFor?: EditsFor;
  /**
   * Bodies with their links resolved, by change index: filled by a run and
   * reused by a later run on the same document state (link resolution is a
   * pass over every body and the page tree; no need to do it twice).
   */
  bodies?: Map<number, string>;
}

function setBody(
  content: ContentDoc,
  pageId: string,
  markdown: string,
  plan: BatchPlan,
  i: number,
  run: BatchRun,
): void {
  let resolved = run.bodies?.get(i);
  if (resolved === undefined) {
    resolved = resolveBatchLinks(markdown, pageId, content, plan.refs);
    run.bodies?.set(i, resolved);
  }
  if (replaceText(content.pageBody(pageId), resolved, null, run.editsFor)) content.touchPage(pageId);
}

function applyOne(
  content: ContentDoc,
  change: ContentChange,
  i: number,
  plan: BatchPlan,
  out: PageOutcome[],
  run: BatchRun,
): void {
  const doc = content.ydoc;
  switch (change.operation) {
    case 'insert_page': {
      const id = plan.newPages.get(i)!;
      const { fields, body } = fieldsOf(change);
      const parent = change.into ?? null;
      if (parent !== null && !content.hasPage(parent))
        throw new ContentDocError('not-found', `page "${parent}" does not exist`);
      const computed = change.computed && readComputedSource(change.computed);
      content.createPage({
        id,
        title: fields.title ?? (computed ? 'API reference' : 'Untitled'),
        parent,
        ...(computed ? { kind: 'computed' as const, computed } : {}),
        ...(fields.slug !== undefined ? { slug: fields.slug } : {}),
        ...(fields.emoji ? { emoji: fields.emoji } : {}),
        ...(fields.icon ? { icon: fields.icon } : {}),
        ...(fields.description ? { description: fields.description } : {}),
        ...(fields.hidden !== undefined ? { hidden: fields.hidden } : {}),
        ...(fields.noIndex !== undefined ? { noIndex: fields.noIndex } : {}),
        ...(fields.condition ? { condition: fields.condition } : {}),
        ...positionAt(doc, parent, change.at),
      });
      if (body !== undefined) setBody(content, id, body, plan, i, run);
      out.push(
        change.ref !== undefined
          ? { object: 'created_page', page: id, ref: change.ref }
          : { object: 'created_page', page: id },
      );
      return;
    }
    case 'update_page': {
      if (!content.hasPage(change.page)) throw new ContentDocError('not-found', `page "${change.page}" does not exist`);
      const { fields, body } = fieldsOf(change);
      content.updatePage(change.page, {
        ...(fields.title !== undefined ? { title: fields.title } : {}),
        ...(fields.slug !== undefined ? { slug: fields.slug } : {}),
        ...(fields.emoji !== undefined ? { emoji: emptyToNull(fields.emoji) } : {}),
        ...(fields.icon !== undefined ? { icon: emptyToNull(fields.icon) } : {}),
        ...(fields.description !== undefined ? { description: emptyToNull(fields.description) } : {}),
        ...(fields.hidden !== undefined ? { hidden: fields.hidden } : {}),
        ...(fields.noIndex !== undefined ? { noIndex: fields.noIndex } : {}),
        ...(fields.condition !== undefined ? { condition: fields.condition } : {}),
      });
      if (change.computed !== undefined) {
        if (content.getPage(change.page)!.kind !== 'computed')
          throw new ContentDocError('invalid', `page "${change.page}" is not a computed page`);
        content.updatePage(change.page, { computed: readComputedSource(change.computed)! });
      }
      if (change.into !== undefined || change.at !== undefined) {
        const current = content.getPage(change.page)!.parent;
        const parent = change.into === undefined ? current : change.into;
        if (parent !== null && !content.hasPage(parent))
          throw new ContentDocError('not-found', `page "${parent}" does not exist`);
        content.movePage(change.page, { parent, ...positionAt(doc, parent, change.at, change.page) });
      }
      if (body !== undefined) setBody(content, change.page, body, plan, i, run);
      out.push({ object: 'updated_page', page: change.page });
      return;
    }
    case 'delete_page': {
      if (!content.hasPage(change.page)) throw new ContentDocError('not-found', `page "${change.page}" does not exist`);
      for (const id of content.deletePage(change.page)) out.push({ object: 'deleted_page', page: id });
      return;
    }
    case 'revert_page': {
      const revert = plan.reverts.get(i);
      if (revert?.blocks) revertBlocks(content, change.page, revert.blocks, out, run.editsFor);
      else revertPage(content, change.page, revert?.page, out, run.editsFor);
      return;
    }
    case 'insert_files': {
      for (const file of plan.files.get(i) ?? []) content.putFile(file.id, file.meta);
      return;
    }
  }
}

/** Puts a page back as it was in `source` (absent there: the page is removed; absent now: it is recreated). */
function revertPage(
  content: ContentDoc,
  pageId: string,
  source: PageData | undefined,
  out: PageOutcome[],
  editsFor: EditsFor | undefined,
): void {
  if (!source) {
    if (!content.hasPage(pageId)) throw new ContentDocError('not-found', `page "${pageId}" does not exist`);
    for (const id of content.deletePage(pageId)) out.push({ object: 'deleted_page', page: id });
    return;
  }
  const parent = source.parent !== null && content.hasPage(source.parent) ? source.parent : null;
  if (!content.hasPage(pageId)) {
    content.createPage({
      id: pageId,
      title: source.title,
      parent,
      slug: source.slug,
      kind: source.kind,
      ...(source.href ? { href: source.href } : {}),
      ...(source.condition ? { condition: source.condition } : {}),
    });
    content.setMarkdown(pageId, source.markdown);
    out.push({ object: 'created_page', page: pageId });
    return;
  }
  content.updatePage(pageId, {
    title: source.title,
    emoji: source.emoji ?? null,
    icon: source.icon ?? null,
    description: source.description ?? null,
    hidden: source.hidden,
    noIndex: source.noIndex,
    condition: source.condition ?? null,
  });
  if (content.getPage(pageId)!.slug !== source.slug) content.updatePage(pageId, { slug: source.slug });
  if (replaceText(content.pageBody(pageId), source.markdown, null, editsFor)) content.touchPage(pageId);
  out.push({ object: 'updated_page', page: pageId });
}

/**
 * Puts the named blocks back (revert-blocks.ts), as a word-level edit of the
 * page body like every other change; the page's properties stay as they are.
 */
function revertBlocks(
  content: ContentDoc,
  pageId: string,
  plan: BlockRevertPlan,
  out: PageOutcome[],
  editsFor: EditsFor | undefined,
): void {
  if (!content.hasPage(pageId)) throw new ContentDocError('not-found', `page "${pageId}" does not exist`);
  const body = content.pageBody(pageId);
  const result = applyBlockRevert(plan, body.toString());
  if ('conflicts' in result) {
    const keys = [...new Set(result.conflicts)].map((k) => `"${k}"`).join(', ');
    throw new ContentDocError(
      'conflict',
      `page "${pageId}" changed where block ${keys} is since this request read it (a writer's edit or an earlier change of this batch); read the page again and retry`,
    );
  }
  if (replaceText(body, result.text, null, editsFor)) content.touchPage(pageId);
  out.push({ object: 'updated_page', page: pageId });
}

function asBatchError(err: unknown, i: number): unknown {
  if (err instanceof ContentDocError) {
    const status = err.code === 'not-found' ? 404 : err.code === 'conflict' ? 409 : 400;
    return new BatchError(status, `body.changes[${i}]: ${err.message}`);
  }
  return err;
}

/** GitBook's rule: a ref must not read like an existing page's path (a link would be ambiguous). */
function checkRefsAgainstPaths(content: ContentDoc, refs: BatchRefs): void {
  if (refs.pages.size === 0 && refs.files.size === 0) return;
  const paths = new Set(pagePaths(content).values());
  for (const ref of [...refs.pages.keys(), ...refs.files.keys()])
    if (paths.has(ref))
      throw new BatchError(400, `body.changes: ref "${ref}" collides with the path of an existing page`);
}

/**
 * Applies the batch to `doc` in order (no atomicity: see applyBatchAtomically).
 * Page bodies get the edits of `run.editsFor` (by default textEdits, a word
 * diff on this thread; a live batch brings edits computed off the event loop).
 */
export function applyBatch(
  doc: Y.Doc,
  changes: readonly ContentChange[],
  plan: BatchPlan,
  now?: () => Date,
  run: BatchRun = {},
): PageOutcome[] {
  const content = new ContentDoc(doc, now ? { now } : {});
  checkRefsAgainstPaths(content, plan.refs);
  const out: PageOutcome[] = [];
  changes.forEach((change, i) => {
    try {
      applyOne(content, change, i, plan, out, run);
    } catch (err) {
      throw asBatchError(err, i);
    }
  });
  return dedupe(out);
}

/** One entry per page, in the order pages were first touched; a page created then deleted is just deleted. */
function dedupe(outcomes: PageOutcome[]): PageOutcome[] {
  const byPage = new Map<string, PageOutcome>();
  for (const o of outcomes) {
    const prev = byPage.get(o.page);
    if (!prev || o.object === 'deleted_page') byPage.set(o.page, o);
    else if (prev.object === 'deleted_page') byPage.set(o.page, o);
  }
  return [...byPage.values()];
}

/**
 * Runs the batch on a copy of `doc`, leaving `doc` alone: throws BatchError
 * when any change fails. `run.editsFor` sees every page body the batch sets,
 * as (text before, text after) in order.
 */
export function trialBatch(
  doc: Y.Doc,
  changes: readonly ContentChange[],
  plan: BatchPlan,
  now?: () => Date,
  run: BatchRun = {},
): void {
  const trial = new Y.Doc({ gc: false });
  Y.applyUpdate(trial, Y.encodeStateAsUpdate(doc));
  try {
    applyBatch(trial, changes, plan, now, run);
  } finally {
    trial.destroy();
  }
}

/**
 * Runs the batch on a copy of `doc` (throwing BatchError without having
 * touched `doc` when any change fails), then on `doc` itself.
 */
export function applyBatchAtomically(
  doc: Y.Doc,
  changes: readonly ContentChange[],
  plan: BatchPlan,
  now?: () => Date,
  run: BatchRun = {},
): PageOutcome[] {
  trialBatch(doc, changes, plan, now, run);
  return applyBatch(doc, changes, plan, now, run);
}
