import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { ApiError, badRequest, notFound } from '../../http/errors';
import { pageArray, type PageRequest } from '../../http/paging';
import { authorize } from '../authorize';
import { ContentDoc } from '../../../shared/doc';
import {
  DiscussionDoc,
  DiscussionDocError,
  isReactionEmoji,
  type CommentData,
  type CommentTarget,
} from '../../../shared/discussion';
import type { JSONDocument } from '../../../shared/markdown/document-types';
import { loadBodies, loadUsers, presentComment, presentReply, type BodyFormat, type PresentContext } from './present';
import { pageSummaries } from './page-targets';
import { MAX_COMMENT_MARKDOWN } from './schemas';
import { postIn, type DiscussionScope } from './scope';

/**
 * The comment operations, written once for any discussion (a space's or a
 * change request's). Reads go through hub.withDoc — each loads (or reuses)
 * the live discussion document and reads it whole, which is fine for
 * discussions of hundreds of comments; writes go through hub.change, so
 * socket clients subscribed to the discussion see them live.
 */

/** A request body in one of GitBook's Document forms. */
export type BodyInput = { markdown: string } | { document: { object: 'document'; data: object; nodes: object[] } };

export interface ListCommentsFilter {
  order?: 'asc' | 'desc';
  status?: 'all' | 'open' | 'resolved';
  format?: BodyFormat;
  targetPage?: string;
  authors?: string[];
}

/** The stored markdown of a body; 400 when it is empty or does not convert. */
async function bodyMarkdown(body: BodyInput): Promise<string> {
  let markdown: string;
  if ('markdown' in body) markdown = body.markdown;
  else {
    // The markdown toolchain loads on the first document body, not at boot (~85 ms, ~10 MiB).
    const { documentToMarkdown } = await import('../../../shared/markdown/from-document');
    try {
      // The serializer ends blocks with a newline; a comment's stored markdown has none to spare.
      markdown = documentToMarkdown(body.document as unknown as JSONDocument).replace(/\s+$/, '');
    } catch {
      throw badRequest('Invalid body: the document could not be read');
    }
  }
  if (markdown.trim() === '') throw badRequest('Invalid body: a comment cannot be empty');
  if (markdown.length > MAX_COMMENT_MARKDOWN)
    throw badRequest(`Invalid body: longer than ${MAX_COMMENT_MARKDOWN} characters`);
  return markdown;
}

function requireReactions(...lists: (string[] | undefined)[]): void {
  for (const list of lists)
    for (const e of list ?? []) if (!isReactionEmoji(e)) throw badRequest(`Invalid reaction "${e}": expected an emoji`);
}

/** Posting, replying, reacting and resolving need `comment` (policy decides). */
function requireCommentRole(scope: DiscussionScope): void {
  authorize(scope.actor, 'comment', scope.resource);
}

/** DiscussionDoc errors -> API errors (writes validate before writing, so nothing was changed). */
function apiError(error: unknown): unknown {
  if (error instanceof DiscussionDocError)
    return error.code === 'not-found'
      ? notFound(error.message.startsWith('Reply') ? 'Comment reply' : 'Comment')
      : badRequest(error.message);
  return error;
}

function read<T>(ctx: AppContext, scope: DiscussionScope, fn: (d: DiscussionDoc) => T): Promise<T> {
  return ctx.hub.withDoc(scope.discussionDoc, (doc) => fn(new DiscussionDoc(doc)));
}

/** Runs `fn` as one committed change of the discussion; returns what `fn` returned. */
async function write<T>(
  ctx: AppContext,
  p: Principal,
  scope: DiscussionScope,
  fn: (d: DiscussionDoc) => T,
): Promise<T> {
  let result: { value: T; open: number } | undefined;
  try {
    await ctx.hub.change(
      scope.discussionDoc,
      (doc) => {
        const discussion = new DiscussionDoc(doc, { now: () => ctx.clock.now() });
        const value = fn(discussion);
        result = { value, open: discussion.openCommentCount() };
      },
      { userId: p.userId, reason: 'comment' },
    );
  } catch (error) {
    throw apiError(error);
  }
  // The Space counter lives on its row (read-cached with the rest of the Space); this write also refreshes that cache.
  if (!scope.changeRequestId)
    await ctx.db.query('UPDATE spaces SET open_comments = $2 WHERE id = $1', [scope.spaceId, result!.open]);
  return result!.value;
}

async function presentContext(
  ctx: AppContext,
  p: Principal,
  scope: DiscussionScope,
  comments: CommentData[],
  format: BodyFormat = 'markdown',
): Promise<PresentContext> {
  const [users, pages, bodies] = await Promise.all([
    loadUsers(ctx, comments),
    comments.some((c) => c.target.page) ? pageSummaries(ctx, scope.revision) : new Map(),
    loadBodies(ctx, comments, format),
  ]);
  return { ctx, scope, callerId: p.userId, users, format, pages, bodies };
}

async function presentOne(ctx: AppContext, p: Principal, scope: DiscussionScope, id: string, format?: BodyFormat) {
  const c = await read(ctx, scope, (d) => d.getComment(id));
  if (!c) throw notFound('Comment');
  return presentComment(await presentContext(ctx, p, scope, [c], format), c);
}

async function presentOneReply(
  ctx: AppContext,
  p: Principal,
  scope: DiscussionScope,
  commentId: string,
  replyId: string,
  format?: BodyFormat,
) {
  const c = await read(ctx, scope, (d) => d.getComment(commentId));
  if (!c) throw notFound('Comment');
  const r = c.replies.find((x) => x.id === replyId);
  if (!r) throw notFound('Comment reply');
  return presentReply(await presentContext(ctx, p, scope, [c], format), commentId, r);
}

/** Comments of a discussion, filtered and paged; newest first unless `order=asc`. */
export async function listComments(
  ctx: AppContext,
  p: Principal,
  scope: DiscussionScope,
  filter: ListCommentsFilter,
  page: PageRequest,
) {
  const authors = filter.authors?.length ? new Set(filter.authors) : undefined;
  const status = filter.status ?? 'all';
  const all = (await read(ctx, scope, (d) => d.listComments())).filter(
    (c) =>
      (status === 'all' || (status === 'resolved') === (c.resolvedAt !== undefined)) &&
      (filter.targetPage === undefined || c.target.page === filter.targetPage) &&
      (!authors || authors.has(c.author)),
  );
  if ((filter.order ?? 'desc') === 'desc') all.reverse();
  const result = pageArray(all, page);
  const pc = await presentContext(ctx, p, scope, result.items, filter.format);
  return { ...result, items: result.items.map((c) => presentComment(pc, c)) };
}

export function getComment(ctx: AppContext, p: Principal, scope: DiscussionScope, id: string, format?: BodyFormat) {
  return presentOne(ctx, p, scope, id, format);
}

export interface PostCommentInput {
  body: BodyInput;
  page?: string;
  node?: string;
  tableCell?: { record: string; definition: string };
}

/** Posts a comment (role `comment`); a `page` target must exist in the scope's current content. */
export async function postComment(ctx: AppContext, p: Principal, scope: DiscussionScope, input: PostCommentInput) {
  requireCommentRole(scope);
  const markdown = await bodyMarkdown(input.body);
  if (input.page !== undefined) {
    const page = input.page;
    const exists = await ctx.hub.withDoc(scope.contentDoc, (doc) => new ContentDoc(doc).hasPage(page));
    if (!exists) throw badRequest(`Invalid page: no page "${page}" in this content`);
  }
  const target: CommentTarget = {
    ...(input.page ? { page: input.page } : {}),
    ...(input.node ? { node: input.node } : {}),
    ...(input.tableCell ? { tableCell: input.tableCell } : {}),
  };
  const id = await write(ctx, p, scope, (d) => d.postComment({ author: p.userId, markdown, target }));
  return presentOne(ctx, p, scope, id);
}

export interface UpdatePostInput {
  body?: BodyInput;
  addedReactions?: string[];
  removedReactions?: string[];
}

/**
 * Updates a comment: `body` (its author only), `resolved` and reactions
 * (anyone with `comment`). All checks run before the first write, so a
 * refused update changes nothing.
 */
export async function updateComment(
  ctx: AppContext,
  p: Principal,
  scope: DiscussionScope,
  id: string,
  input: UpdatePostInput & { resolved?: boolean },
) {
  requireReactions(input.addedReactions, input.removedReactions);
  const markdown = input.body === undefined ? undefined : await bodyMarkdown(input.body);
  await write(ctx, p, scope, (d) => {
    const c = d.getComment(id);
    if (!c) throw notFound('Comment');
    requireCommentRole(scope);
    if (markdown !== undefined) authorize(scope.actor, 'edit', postIn(scope, c.author));
    if (markdown !== undefined && markdown !== c.markdown) d.editBody({ comment: id }, markdown);
    if (input.resolved !== undefined) d.setResolved(id, input.resolved, p.userId);
    if (input.addedReactions?.length || input.removedReactions?.length)
      d.react({ comment: id }, p.userId, input.addedReactions ?? [], input.removedReactions ?? []);
  });
  return presentOne(ctx, p, scope, id);
}

/** Deletes a comment and its replies (its author, or an admin). Missing: nothing to do. */
export async function deleteComment(ctx: AppContext, p: Principal, scope: DiscussionScope, id: string): Promise<void> {
  await write(ctx, p, scope, (d) => {
    const c = d.getComment(id);
    if (!c) return;
    authorize(scope.actor, 'delete', postIn(scope, c.author));
    d.deleteComment(id);
  });
}

/** Replies of a comment, oldest first, paged. */
export async function listReplies(
  ctx: AppContext,
  p: Principal,
  scope: DiscussionScope,
  commentId: string,
  format: BodyFormat | undefined,
  page: PageRequest,
) {
  const c = await read(ctx, scope, (d) => d.getComment(commentId));
  if (!c) throw notFound('Comment');
  const result = pageArray(c.replies, page);
  const pc = await presentContext(ctx, p, scope, [c], format);
  return { ...result, items: result.items.map((r) => presentReply(pc, commentId, r)) };
}

export function getReply(
  ctx: AppContext,
  p: Principal,
  scope: DiscussionScope,
  commentId: string,
  replyId: string,
  format?: BodyFormat,
) {
  return presentOneReply(ctx, p, scope, commentId, replyId, format);
}

/** Replies to a comment (role `comment`). */
export async function postReply(
  ctx: AppContext,
  p: Principal,
  scope: DiscussionScope,
  commentId: string,
  body: BodyInput,
) {
  requireCommentRole(scope);
  const markdown = await bodyMarkdown(body);
  const id = await write(ctx, p, scope, (d) => d.postReply(commentId, { author: p.userId, markdown }));
  return presentOneReply(ctx, p, scope, commentId, id);
}

/** Updates a reply: `body` (its author only), reactions (anyone with `comment`). */
export async function updateReply(
  ctx: AppContext,
  p: Principal,
  scope: DiscussionScope,
  commentId: string,
  replyId: string,
  input: UpdatePostInput,
) {
  requireReactions(input.addedReactions, input.removedReactions);
  const markdown = input.body === undefined ? undefined : await bodyMarkdown(input.body);
  const ref = { comment: commentId, reply: replyId };
  await write(ctx, p, scope, (d) => {
    const r = d.getReply(commentId, replyId);
    if (!r) throw d.getComment(commentId) ? notFound('Comment reply') : notFound('Comment');
    requireCommentRole(scope);
    if (markdown !== undefined) authorize(scope.actor, 'edit', postIn(scope, r.author));
    if (markdown !== undefined && markdown !== r.markdown) d.editBody(ref, markdown);
    if (input.addedReactions?.length || input.removedReactions?.length)
      d.react(ref, p.userId, input.addedReactions ?? [], input.removedReactions ?? []);
  });
  return presentOneReply(ctx, p, scope, commentId, replyId);
}

/** Deletes a reply (its author, or an admin). Missing: nothing to do. */
export async function deleteReply(
  ctx: AppContext,
  p: Principal,
  scope: DiscussionScope,
  commentId: string,
  replyId: string,
): Promise<void> {
  await write(ctx, p, scope, (d) => {
    const r = d.getReply(commentId, replyId);
    if (!r) return;
    authorize(scope.actor, 'delete', postIn(scope, r.author));
    d.deleteReply(commentId, replyId);
  });
}

/**
 * Runs a DELETE's scope lookup: a caller who cannot see the owner gets the
 * same 204 as for a missing comment (undefined here), revealing nothing.
 */
export async function scopeForDelete(lookup: () => Promise<DiscussionScope>): Promise<DiscussionScope | undefined> {
  try {
    return await lookup();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}
