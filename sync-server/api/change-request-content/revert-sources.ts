import type { AppContext } from '../../context';
import type { ChangeRequestRow } from '../../store/change-requests';
import { viewOf } from '../../docs/revision-view';
import type { StoredPage } from '../../docs/revision-store';
import type { PageData, PageKind } from '../../../shared/doc';
import { BatchError } from './apply-error';
import type { BatchPlan } from './apply';
import type { ContentChange } from './schemas';
import { ContentDoc } from '../../../shared/doc';
import { crContentDoc } from '../../../shared/sync-contract';
import { planBlockRevert, type BlockRevertPlan, type PageVersion } from './revert-blocks';

/**
 * Loads, for each revert_page change, the page as it was in the revision it
 * names (default: the change request's base — its last update from main, or
 * the revision it was created from). The revision must belong to this space
 * (the space's own history or this change request's); anything else is 404.
 */
export async function loadRevertSources(
  ctx: AppContext,
  cr: ChangeRequestRow,
  changes: readonly ContentChange[],
  plan: BatchPlan,
): Promise<void> {
  for (const [i, change] of changes.entries()) {
    if (change.operation !== 'revert_page') continue;
    const revisionId = change.revision ?? cr.revision_merged_ancestor ?? cr.revision_initial;
    const revision = await ctx.revisions.get(revisionId);
    if (
      !revision ||
      revision.spaceId !== cr.space_id ||
      (revision.changeRequestId && revision.changeRequestId !== cr.id)
    )
      throw new BatchError(404, `body.changes[${i}].revision: revision "${revisionId}" not found`);
    const view = viewOf(revision);
    const stored = view.pagesById.get(change.page);
    if (change.block !== undefined) {
      const sourceText = typeof stored?.markdown === 'string' ? stored.markdown : '';
      plan.reverts.set(i, { blocks: await planBlocks(ctx, cr, change.page, sourceText, change.block, i) });
      continue;
    }
    plan.reverts.set(i, stored ? { page: pageData(stored, view.parentOf.get(change.page) ?? null) } : {});
  }
}

/**
 * The block form: the page's markdown now (the change request's live
 * document) and in the source revision, split into blocks in the parse pool,
 * and the replacements that put the named blocks back (revert-blocks.ts).
 */
async function planBlocks(
  ctx: AppContext,
  cr: ChangeRequestRow,
  pageId: string,
  sourceText: string,
  keys: readonly string[],
  i: number,
): Promise<BlockRevertPlan> {
  const currentText = await ctx.hub.withDoc(crContentDoc(cr.id), (doc) => {
    const content = new ContentDoc(doc);
    return content.hasPage(pageId) ? content.getMarkdown(pageId) : undefined;
  });
  if (currentText === undefined) throw new BatchError(404, `body.changes[${i}]: page "${pageId}" does not exist`);
  const version = async (text: string): Promise<PageVersion> => {
    const split = await ctx.markdown.blocks(text);
    if ('degraded' in split)
      throw new BatchError(
        400,
        `body.changes[${i}].block: page "${pageId}" cannot be split into blocks (${split.degraded.message}); omit \`block\` to revert the whole page`,
      );
    return { text, blocks: split.blocks };
  };
  const [current, source] = await Promise.all([version(currentText), version(sourceText)]);
  return planBlockRevert(current, source, keys, `body.changes[${i}]`, pageId);
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function pageData(p: StoredPage, parent: string | null): PageData {
  const kind: PageKind = p.type === 'group' ? 'group' : p.type === 'link' ? 'link' : 'document';
  const target = p.target as { url?: string } | undefined;
  const href = str(p.href) ?? target?.url;
  return {
    id: p.id,
    kind,
    title: str(p.title) || 'Untitled',
    slug: str(p.slug) ?? '',
    parent,
    index: '',
    hidden: p.hidden === true,
    noIndex: p.noIndex === true,
    layout: {},
    markdown: str(p.markdown) ?? '',
    ...(str(p.emoji) ? { emoji: str(p.emoji) } : {}),
    ...(str(p.icon) ? { icon: str(p.icon) } : {}),
    ...(str(p.description) ? { description: str(p.description) } : {}),
    ...(href ? { href } : {}),
    ...(str(p.condition) ? { condition: str(p.condition) } : {}),
  };
}
