import type { DiscussionDoc } from '../../../shared/discussion/discussion-doc';
import type { PostData } from '../../../shared/discussion/types';
import type { OutboxItem } from './outbox';

/**
 * Whether a queued comment or reply is already in the discussion document
 * (its earlier send reached the server but the answer was lost): same author,
 * page and text, posted after it was queued (with 10 minutes of clock skew).
 */
export function alreadyDelivered(discussion: DiscussionDoc, userId: string | undefined, item: OutboxItem): boolean {
  if (item.op.kind === 'update' || !userId) return false;
  const since = new Date(Date.parse(item.createdAt) - 10 * 60_000).toISOString();
  const fits = (p: PostData) =>
    p.author === userId &&
    p.markdown.trim() === (item.op as { markdown: string }).markdown.trim() &&
    p.postedAt >= since;
  const comments = discussion.listComments();
  if (item.op.kind === 'comment') {
    const page = item.op.page;
    return comments.some((c) => c.target.page === page && fits(c));
  }
  const parent = comments.find((c) => c.id === (item.op as { commentId: string }).commentId);
  return parent?.replies.some(fits) ?? false;
}
