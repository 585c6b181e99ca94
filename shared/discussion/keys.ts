import type * as Y from 'yjs';

/**
 * The Yjs key names of a `discussion` document (a space's or a change
 * request's comments) — the ONLY place that spells them (DESIGN.md
 * "Documents (Yjs)"). The values are a persisted format: changing one breaks
 * every stored discussion.
 *
 * Layout:
 *   comments: Y.Map commentId -> Y.Map {
 *     author, body (markdown string), postedAt, editedAt?, target (plain object),
 *     resolvedAt?, resolvedBy?,
 *     reactions: Y.Map emoji -> Y.Map userId -> reactedAt,
 *     replies: Y.Map replyId -> Y.Map { author, body, postedAt, editedAt?, reactions } }
 * Timestamps are ISO 8601 strings. Bodies are whole strings, not Y.Text: only
 * the server writes this document and every edit replaces the whole body.
 */
export const ROOT = { comments: 'comments' } as const;

/** Fields shared by a comment's and a reply's Y.Map. */
export const POST = {
  /** user id of the poster */
  author: 'author',
  /** markdown string */
  body: 'body',
  postedAt: 'postedAt',
  editedAt: 'editedAt',
  /** Y.Map emoji -> Y.Map userId -> reactedAt */
  reactions: 'reactions',
} as const;

/** Fields only a top-level comment has. */
export const COMMENT = {
  ...POST,
  /** plain object CommentTarget (never changes after posting) */
  target: 'target',
  resolvedAt: 'resolvedAt',
  /** user id */
  resolvedBy: 'resolvedBy',
  /** Y.Map replyId -> reply Y.Map (POST fields) */
  replies: 'replies',
} as const;

/** The root map of comments. */
export function commentsRoot(doc: Y.Doc): Y.Map<Y.Map<unknown>> {
  return doc.getMap(ROOT.comments);
}
