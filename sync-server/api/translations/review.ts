import type { AppContext } from '../../context';
import { ContentDoc } from '../../../shared/doc';
import { crContentDoc } from '../../../shared/sync-contract';
import { findChangeRequest } from '../../store/change-requests';
import { createChangeRequest } from '../change-requests/service';
import { principalOf } from '../git/principal';
import type { PageText } from './mirror';

/**
 * Pages edited by hand in the result space are never overwritten by a run: their new translation
 * is proposed in a change request of the result space instead, for someone to review and merge.
 * One change request per run: an attempt that stopped after making it (the server killed, the run's
 * record refused) left its id in the job's progress, and the next attempt proposes in it again.
 */
export async function proposeForReview(
  ctx: AppContext,
  resultSpaceId: string,
  proposals: ReadonlyMap<string, PageText>,
  userId: string,
  attempt: {
    /** The change request an earlier attempt of this run made: proposed in again while it is open. */
    earlier?: string | undefined;
    /** Told the new change request's id at once, before anything is written into it. */
    made: (id: string) => Promise<void>;
  },
): Promise<string> {
  const n = proposals.size;
  const reusable = attempt.earlier && (await findChangeRequest(ctx.db, resultSpaceId, attempt.earlier));
  const cr =
    reusable && (reusable.status === 'draft' || reusable.status === 'open')
      ? reusable
      : await createChangeRequest(ctx, await principalOf(ctx, userId), resultSpaceId, {
          subject: `New translation of ${n} page${n === 1 ? '' : 's'} edited in this space`,
        });
  if (cr !== reusable) await attempt.made(cr.id);
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
