import type { AppContext } from '../../context';
import { DiscussionDoc } from '../../../shared/discussion';

/**
 * Unresolved top-level comments of a discussion document: the `comments`
 * counter of Space (spaceDiscussionDoc(spaceId)) and ChangeRequest
 * (crDiscussionDoc(crId)) objects. Loads the document through the hub (kept
 * in memory while it is hot), so it costs one document load per cold space;
 * it imports nothing from other API modules, so presenters can use it
 * without an import cycle.
 */
export function openCommentCount(ctx: AppContext, discussionDoc: string): Promise<number> {
  return ctx.hub.withDoc(discussionDoc, (doc) => new DiscussionDoc(doc).openCommentCount());
}
