import * as Y from 'yjs';
import { EMOJI_PATTERN } from '../emoji';
import { newEntityId } from '../doc/ids';
import { COMMENT, POST, commentsRoot } from './keys';
import type { CommentData, CommentTarget, PostData, PostRef, ReactionData, ReplyData } from './types';

/** A write referred to a comment or reply that does not exist, or carried invalid data. */
export class DiscussionDocError extends Error {
  constructor(
    readonly code: 'not-found' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'DiscussionDocError';
  }
}

/** Options of a DiscussionDoc. */
export interface DiscussionDocOptions {
  /** Clock for postedAt/editedAt/resolvedAt/reactedAt. */
  now?: () => Date;
  /** Transaction origin of writes made outside an enclosing transaction. */
  origin?: unknown;
}

/** Longest accepted reaction string (GitBook's emoji fields are maxLength 50). */
const MAX_EMOJI_LENGTH = 50;

/** True when `emoji` is usable as a reaction: a non-empty emoji (or code point) string. */
export function isReactionEmoji(emoji: string): boolean {
  return emoji.length > 0 && emoji.length <= MAX_EMOJI_LENGTH && EMOJI_PATTERN.test(emoji);
}

const byPosted = (a: PostData, b: PostData) =>
  a.postedAt < b.postedAt ? -1 : a.postedAt > b.postedAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Reads a reactions map (emoji -> userId -> reactedAt) into plain data, earliest reaction first. */
function readReactions(map: Y.Map<Y.Map<string>> | undefined): ReactionData[] {
  if (!map) return [];
  const out: ReactionData[] = [];
  for (const [emoji, users] of map.entries()) {
    const list = [...users.entries()].map(([userId, reactedAt]) => ({ userId, reactedAt }));
    if (list.length === 0) continue;
    list.sort((a, b) =>
      a.reactedAt < b.reactedAt ? -1 : a.reactedAt > b.reactedAt ? 1 : a.userId < b.userId ? -1 : 1,
    );
    out.push({ emoji, users: list });
  }
  return out.sort((a, b) =>
    a.users[0]!.reactedAt < b.users[0]!.reactedAt
      ? -1
      : a.users[0]!.reactedAt > b.users[0]!.reactedAt
        ? 1
        : a.emoji < b.emoji
          ? -1
          : 1,
  );
}

function readPost(id: string, m: Y.Map<unknown>): PostData {
  const editedAt = m.get(POST.editedAt);
  return {
    id,
    author: String(m.get(POST.author) ?? ''),
    markdown: String(m.get(POST.body) ?? ''),
    postedAt: String(m.get(POST.postedAt) ?? ''),
    ...(typeof editedAt === 'string' ? { editedAt } : {}),
    reactions: readReactions(m.get(POST.reactions) as Y.Map<Y.Map<string>> | undefined),
  };
}

function readTarget(value: unknown): CommentTarget {
  if (!value || typeof value !== 'object') return {};
  const v = value as Record<string, unknown>;
  const cell = v.tableCell as { record?: unknown; definition?: unknown } | undefined;
  return {
    ...(typeof v.page === 'string' ? { page: v.page } : {}),
    ...(typeof v.node === 'string' ? { node: v.node } : {}),
    ...(cell && typeof cell.record === 'string' && typeof cell.definition === 'string'
      ? { tableCell: { record: cell.record, definition: cell.definition } }
      : {}),
    ...(typeof v.review === 'string' ? { review: v.review } : {}),
  };
}

/**
 * Typed accessor over a discussion Y.Doc (a space's or a change request's
 * comments). Reads return plain data; each write is one transaction (or joins
 * the caller's, e.g. DocHub.change), and validates before it writes anything,
 * so a refused write leaves the document untouched.
 */
export class DiscussionDoc {
  private readonly now: () => Date;
  private readonly origin: unknown;

  /** @param ydoc the discussion document; not owned (never destroyed) by this accessor. */
  constructor(
    private readonly ydoc: Y.Doc,
    options: DiscussionDocOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.origin = options.origin ?? null;
  }

  private get comments(): Y.Map<Y.Map<unknown>> {
    return commentsRoot(this.ydoc);
  }

  private transact(fn: () => void): void {
    this.ydoc.transact(fn, this.origin);
  }

  private commentMap(id: string): Y.Map<unknown> {
    const m = this.comments.get(id);
    if (!(m instanceof Y.Map)) throw new DiscussionDocError('not-found', `Comment "${id}" not found`);
    return m;
  }

  private replyMap(commentId: string, replyId: string): Y.Map<unknown> {
    const replies = this.commentMap(commentId).get(COMMENT.replies) as Y.Map<Y.Map<unknown>> | undefined;
    const m = replies?.get(replyId);
    if (!(m instanceof Y.Map)) throw new DiscussionDocError('not-found', `Reply "${replyId}" not found`);
    return m;
  }

  private postMap(ref: PostRef): Y.Map<unknown> {
    return ref.reply === undefined ? this.commentMap(ref.comment) : this.replyMap(ref.comment, ref.reply);
  }

  private readComment(id: string, m: Y.Map<unknown>): CommentData {
    const resolvedAt = m.get(COMMENT.resolvedAt);
    const resolvedBy = m.get(COMMENT.resolvedBy);
    const replies = m.get(COMMENT.replies) as Y.Map<Y.Map<unknown>> | undefined;
    const replyList = replies ? [...replies.entries()].map(([rid, r]) => readPost(rid, r)).sort(byPosted) : [];
    return {
      ...readPost(id, m),
      target: readTarget(m.get(COMMENT.target)),
      ...(typeof resolvedAt === 'string' && typeof resolvedBy === 'string' ? { resolvedAt, resolvedBy } : {}),
      replies: replyList,
    };
  }

  /** Every comment, oldest first (ties by id, so the order is total). */
  listComments(): CommentData[] {
    return [...this.comments.entries()].map(([id, m]) => this.readComment(id, m)).sort(byPosted);
  }

  /** One comment with its replies, or undefined. */
  getComment(id: string): CommentData | undefined {
    const m = this.comments.get(id);
    return m instanceof Y.Map ? this.readComment(id, m) : undefined;
  }

  /** One reply of a comment, or undefined when either does not exist. */
  getReply(commentId: string, replyId: string): ReplyData | undefined {
    return this.getComment(commentId)?.replies.find((r) => r.id === replyId);
  }

  /** Number of unresolved top-level comments (the `comments` counter of spaces and change requests). */
  openCommentCount(): number {
    let open = 0;
    for (const m of this.comments.values()) if (typeof m.get(COMMENT.resolvedAt) !== 'string') open++;
    return open;
  }

  /** Posts a comment; returns its id. */
  postComment(input: { id?: string; author: string; markdown: string; target?: CommentTarget }): string {
    const id = input.id ?? newEntityId();
    if (this.comments.has(id)) throw new DiscussionDocError('invalid', `Comment "${id}" already exists`);
    const target = readTarget(input.target ?? {});
    this.transact(() => {
      const m = new Y.Map<unknown>();
      this.comments.set(id, m);
      m.set(COMMENT.author, input.author);
      m.set(COMMENT.body, input.markdown);
      m.set(COMMENT.postedAt, this.now().toISOString());
      m.set(COMMENT.target, target);
      m.set(COMMENT.reactions, new Y.Map());
      m.set(COMMENT.replies, new Y.Map());
    });
    return id;
  }

  /** Posts a reply to an existing comment; returns its id. */
  postReply(commentId: string, input: { id?: string; author: string; markdown: string }): string {
    const replies = this.commentMap(commentId).get(COMMENT.replies) as Y.Map<Y.Map<unknown>>;
    const id = input.id ?? newEntityId();
    if (replies.has(id)) throw new DiscussionDocError('invalid', `Reply "${id}" already exists`);
    this.transact(() => {
      const m = new Y.Map<unknown>();
      replies.set(id, m);
      m.set(POST.author, input.author);
      m.set(POST.body, input.markdown);
      m.set(POST.postedAt, this.now().toISOString());
      m.set(POST.reactions, new Y.Map());
    });
    return id;
  }

  /** Replaces the body of a comment or reply and stamps editedAt. */
  editBody(ref: PostRef, markdown: string): void {
    const m = this.postMap(ref);
    this.transact(() => {
      m.set(POST.body, markdown);
      m.set(POST.editedAt, this.now().toISOString());
    });
  }

  /** Resolves (recording when and by whom) or reopens a comment; a no-op when already in that state. */
  setResolved(commentId: string, resolved: boolean, by: string): void {
    const m = this.commentMap(commentId);
    const isResolved = typeof m.get(COMMENT.resolvedAt) === 'string';
    if (resolved === isResolved) return;
    this.transact(() => {
      if (resolved) {
        m.set(COMMENT.resolvedAt, this.now().toISOString());
        m.set(COMMENT.resolvedBy, by);
      } else {
        m.delete(COMMENT.resolvedAt);
        m.delete(COMMENT.resolvedBy);
      }
    });
  }

  /**
   * Adds and removes `userId`'s reactions on a comment or reply. One reaction
   * per user per emoji: adding an existing one keeps its original reactedAt.
   * Removals apply after additions. Every emoji is validated first.
   */
  react(ref: PostRef, userId: string, added: readonly string[], removed: readonly string[]): void {
    const bad = [...added, ...removed].find((e) => !isReactionEmoji(e));
    if (bad !== undefined) throw new DiscussionDocError('invalid', `Invalid reaction "${bad}": expected an emoji`);
    const m = this.postMap(ref);
    let reactions = m.get(POST.reactions) as Y.Map<Y.Map<string>> | undefined;
    this.transact(() => {
      if (!reactions) {
        reactions = new Y.Map();
        m.set(POST.reactions, reactions);
      }
      const at = this.now().toISOString();
      for (const emoji of added) {
        let users = reactions.get(emoji);
        if (!users) {
          users = new Y.Map<string>();
          reactions.set(emoji, users);
        }
        if (!users.has(userId)) users.set(userId, at);
      }
      for (const emoji of removed) {
        const users = reactions.get(emoji);
        if (!users?.has(userId)) continue;
        users.delete(userId);
        // An emoji nobody reacts with any more disappears, so the map does not accumulate empties.
        if (users.size === 0) reactions.delete(emoji);
      }
    });
  }

  /** Deletes a comment with its replies; returns whether it existed. */
  deleteComment(id: string): boolean {
    if (!this.comments.has(id)) return false;
    this.transact(() => this.comments.delete(id));
    return true;
  }

  /** Deletes a reply; returns whether it existed. */
  deleteReply(commentId: string, replyId: string): boolean {
    const replies = this.comments.get(commentId)?.get(COMMENT.replies) as Y.Map<Y.Map<unknown>> | undefined;
    if (!replies?.has(replyId)) return false;
    this.transact(() => replies.delete(replyId));
    return true;
  }
}
