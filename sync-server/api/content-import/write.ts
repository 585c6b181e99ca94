import type { AppContext } from '../../context';
import { ContentDoc } from '../../../shared/doc';
import { crContentDoc, spaceContentDoc } from '../../../shared/sync-contract';
import { planBatch } from '../change-request-content/apply';
import { applyToLiveDocument } from '../change-request-content/apply-live';
import type { ContentChange } from '../change-request-content/schemas';
import type { ImportTree } from '../../import/types';
import { stageImportFiles } from './stage-files';

/**
 * Writes an import's pages and files as ONE change of the target's live document, exactly as
 * updateChangeRequestContent writes a batch (insert_files, then insert_page per page, files
 * staged until the change applies, links resolved by batch refs), then cuts one revision. New
 * pages go after the pages already there (or inside `target.page`); nothing is deleted. A group
 * (a SUMMARY.md heading) is inserted as a page and made a group in the same change; imported
 * into a page it stays a page holding its pages, since a group lives only at the root.
 */

export interface WriteTarget {
  organizationId: string;
  spaceId: string;
  changeRequestId?: string;
  /** The page the top-level imported pages go into. */
  pageId?: string;
  userId: string;
}

export interface Written {
  revision: string | undefined;
  /** The id each imported page got, by its ref. */
  pages: Map<string, string>;
}

/** Pages with every parent before its children (a crawl may meet a child first), siblings in their order. */
export function parentsFirst<P extends { ref: string; parent?: string }>(pages: readonly P[]): P[] {
  const refs = new Set(pages.map((p) => p.ref));
  const children = new Map<string | undefined, P[]>();
  for (const page of pages) {
    const parent = page.parent !== undefined && refs.has(page.parent) ? page.parent : undefined;
    children.set(parent, [...(children.get(parent) ?? []), page]);
  }
  const out: P[] = [];
  const visit = (parent: string | undefined) => {
    for (const page of children.get(parent) ?? []) {
      out.push(page);
      visit(page.ref);
    }
  };
  visit(undefined);
  return out;
}

export async function writeImport(ctx: AppContext, target: WriteTarget, tree: ImportTree): Promise<Written> {
  const ordered = parentsFirst(tree.pages);
  const changes: ContentChange[] = [];
  // The bytes are staged apart (stage-files.ts): the change names the files, the plan carries them.
  if (tree.files.length > 0)
    changes.push({
      operation: 'insert_files',
      files: tree.files.map((f) => ({ ref: f.ref, name: f.name, contentType: f.contentType })),
    });
  const indexOf = new Map<string, number>();
  for (const page of ordered) {
    indexOf.set(page.ref, changes.length);
    changes.push({
      operation: 'insert_page',
      ref: page.ref,
      title: page.title.slice(0, 256) || 'Untitled',
      document: { markdown: page.markdown.slice(0, 1_000_000) },
      ...(page.parent === undefined && target.pageId ? { into: target.pageId } : {}),
    });
  }
  const plan = planBatch(changes);
  // A parent imported in the same batch is known by the id the plan chose for it.
  for (const page of ordered)
    if (page.parent !== undefined) {
      const change = changes[indexOf.get(page.ref)!] as Extract<ContentChange, { operation: 'insert_page' }>;
      change.into = plan.newPages.get(indexOf.get(page.parent)!);
    }
  const groups = target.pageId
    ? []
    : ordered.filter((p) => p.kind === 'group').map((p) => plan.newPages.get(indexOf.get(p.ref)!)!);
  const name = target.changeRequestId ? crContentDoc(target.changeRequestId) : spaceContentDoc(target.spaceId);
  const staged = await stageImportFiles(ctx, target.organizationId, tree.files, 0, plan);
  await staged.commit(() =>
    applyToLiveDocument(ctx, name, changes, plan, {
      origin: { userId: target.userId, reason: 'content-import' },
      onApplied: () => {
        staged.promote();
        makeGroups(ctx, name, groups);
      },
    }),
  );
  const revision = target.changeRequestId
    ? await ctx.snapshots.reviseChangeRequest(target.changeRequestId, { userId: target.userId })
    : await ctx.snapshots.revise(target.spaceId, { userId: target.userId });
  if (target.changeRequestId)
    await ctx.db.query('UPDATE change_requests SET updated_at = $2 WHERE id = $1', [
      target.changeRequestId,
      ctx.clock.now(),
    ]);
  const pages = new Map(tree.pages.map((p) => [p.ref, plan.newPages.get(indexOf.get(p.ref)!)!]));
  return { revision, pages };
}

/**
 * Makes the pages `ids` groups. Runs inside the batch's change (onApplied), on the live document
 * that change is writing, so readers never see them as plain pages: a batch has no way to insert
 * a group (insert_page makes documents). They are new root pages, so the kind change cannot fail.
 */
function makeGroups(ctx: AppContext, name: string, ids: readonly string[]): void {
  if (ids.length === 0) return;
  const live = ctx.hub.loadedDoc(name);
  // The change holds a lease on the document, so it is loaded; were it not, the run fails saying so.
  if (!live) throw new Error(`The document ${name} was unloaded while the import was written`);
  const content = new ContentDoc(live.doc, { now: () => ctx.clock.now() });
  for (const id of ids) content.updatePage(id, { kind: 'group' });
}
