import type { AppContext } from '../../context';
import type { ChangeRequestRow } from '../../store/change-requests';
import { viewOf } from '../../docs/revision-view';
import type { StoredPage } from '../../docs/revision-store';
import type { PageData, PageKind } from '../../../shared/doc';
import { BatchError } from './apply-error';
import type { BatchPlan } from './apply';
import type { ContentChange } from './schemas';

/**
 * Why the `block` form of revert_page is refused. GitBook names blocks by the
 * `key` its JSON documents give every node; a Folio page is one markdown text
 * (a Y.Text), and the JSON documents Folio returns are derived from it on each
 * read with no node keys, so no key a client could send names a block. Keys
 * derived from position or content would not survive the edits that make a
 * block worth reverting (inserting above it shifts positions; modifying it
 * changes its content), so they could not pair a block with its older self.
 */
export const BLOCK_REVERT_UNSUPPORTED =
  'reverting single blocks is not supported: Folio pages are markdown text whose documents carry no block keys, so a block cannot be named; omit `block` to revert the whole page';

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
    if (change.block !== undefined) throw new BatchError(400, `body.changes[${i}].block: ${BLOCK_REVERT_UNSUPPORTED}`);
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
    plan.reverts.set(i, stored ? { page: pageData(stored, view.parentOf.get(change.page) ?? null) } : {});
  }
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
  };
}
