import type { AppContext } from '../../context';
import { ContentDoc } from '../../../shared/doc';
import { crContentDoc } from '../../../shared/sync-contract';
import { createChangeRequest } from '../change-requests/service';
import { principalOf } from '../git/principal';
import type { PageText } from './mirror';

/**
 * Pages edited by hand in the result space are never overwritten by a run: their new translation
 * is proposed in a change request of the result space instead, for someone to review and merge.
 */
export async function proposeForReview(
  ctx: AppContext,
  resultSpaceId: string,
  proposals: ReadonlyMap<string, PageText>,
  userId: string,
): Promise<string> {
  const n = proposals.size;
  const cr = await createChangeRequest(ctx, await principalOf(ctx, userId), resultSpaceId, {
    subject: `New translation of ${n} page${n === 1 ? '' : 's'} edited in this space`,
  });
  await ctx.hub.change(
    crContentDoc(cr.id),
    (doc) => {
      const content = new ContentDoc(doc, { now: () => ctx.clock.now() });
      for (const [id, text] of proposals) {
        if (!content.hasPage(id)) continue;
        content.updatePage(id, { title: text.title, description: text.description ?? null });
        if (text.markdown !== undefined) content.setMarkdown(id, text.markdown);
      }
    },
    { userId, reason: 'translation' },
  );
  await ctx.snapshots.reviseChangeRequest(cr.id, { userId });
  return cr.id;
}
