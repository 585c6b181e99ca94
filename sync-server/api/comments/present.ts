import type { AppContext } from '../../context';
import type { CommentData, PostData, ReactionData, ReplyData } from '../../../shared/discussion';
import { degradedDocument } from '../../../shared/markdown/degraded';
import type { JSONDocument } from '../../../shared/markdown/document-types';
import { postPermissions } from '../../policy/discussion';
import { presentUser, viewerOf, type UserRow } from '../system/present-user';
import { postIn, type DiscussionScope } from './scope';
import { pageTarget, type PageSummary } from './page-targets';

/** Output format of comment bodies (`format` query). */
export type BodyFormat = 'markdown' | 'document';

/** Everything presentation needs besides the comment itself. */
export interface PresentContext {
  ctx: AppContext;
  scope: DiscussionScope;
  /** The caller's user id (for `permissions`). */
  callerId: string;
  users: Map<string, UserRow>;
  format: BodyFormat;
  /** With format 'document': each body's document by its markdown (see loadBodies). */
  bodies?: ReadonlyMap<string, JSONDocument>;
  /** Pages of the scope's current revision, for `target.page`. */
  pages: Map<string, PageSummary>;
}

/** Users of every id mentioned by `posts` (authors, reactors, resolvers), in one query. */
export async function loadUsers(
  ctx: AppContext,
  posts: readonly CommentData[] | readonly ReplyData[],
): Promise<Map<string, UserRow>> {
  const ids = new Set<string>();
  const addPost = (p: PostData) => {
    ids.add(p.author);
    for (const r of p.reactions) for (const u of r.users) ids.add(u.userId);
  };
  for (const p of posts) {
    addPost(p);
    const c = p as Partial<CommentData>;
    if (c.resolvedBy) ids.add(c.resolvedBy);
    for (const r of c.replies ?? []) ids.add(r.author);
  }
  if (ids.size === 0) return new Map();
  const rows = await ctx.db.query<UserRow>(
    'SELECT id, display_name, email, photo_url FROM users WHERE id = ANY($1::text[])',
    [[...ids]],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * A user that no longer exists still shows as an author (comments outlive accounts). Shown as the caller
 * may see them: a guest gets no member's email.
 */
function userOf(pc: PresentContext, id: string) {
  const user = pc.users.get(id) ?? { id, display_name: 'Deleted user', email: null, photo_url: null };
  return presentUser(pc.ctx, viewerOf(pc.scope.actor), user);
}

/**
 * Documents of the bodies of `posts` and their replies when `format` is 'document', by markdown.
 * Made by the markdown service (parse pool, time budget, cached per text): a 20,000-character body
 * can be written to take seconds to parse, and comment listings are not cached.
 */
export async function loadBodies(
  ctx: AppContext,
  posts: readonly CommentData[] | readonly ReplyData[],
  format: BodyFormat,
): Promise<Map<string, JSONDocument>> {
  if (format !== 'document') return new Map();
  const texts = new Set<string>();
  for (const p of posts) {
    texts.add(p.markdown);
    for (const r of (p as Partial<CommentData>).replies ?? []) texts.add(r.markdown);
  }
  const list = [...texts];
  const documents = await Promise.all(list.map((t) => ctx.markdown.document(t)));
  return new Map(list.map((t, i) => [t, documents[i]!]));
}

function presentBody(pc: PresentContext, markdown: string) {
  if (pc.format !== 'document') return { markdown };
  // loadBodies covers every body presented; a body it missed is never parsed here, on the event loop.
  const document =
    pc.bodies?.get(markdown) ?? degradedDocument(markdown, { reason: 'error', message: 'it was not formatted' });
  return { document };
}

function presentReactions(pc: PresentContext, reactions: ReactionData[]) {
  return reactions.map((r) => ({
    emoji: r.emoji,
    count: r.users.length,
    users: r.users.map((u) => ({ user: userOf(pc, u.userId), reactedAt: u.reactedAt })),
  }));
}

function presentPost(pc: PresentContext, p: PostData, location: string) {
  return {
    id: p.id,
    postedBy: userOf(pc, p.author),
    postedAt: p.postedAt,
    ...(p.editedAt ? { editedAt: p.editedAt } : {}),
    reactions: presentReactions(pc, p.reactions),
    body: presentBody(pc, p.markdown),
    urls: { location: pc.ctx.urls.api(location) },
    permissions: postPermissions({ userId: pc.callerId, role: pc.scope.role }, postIn(pc.scope, p.author)),
  };
}

/** Who replied, how often, and when last (GitBook's `repliers`), most recent first. */
function repliers(pc: PresentContext, replies: ReplyData[]) {
  const by = new Map<string, { count: number; updatedAt: string }>();
  for (const r of replies) {
    const at = r.editedAt && r.editedAt > r.postedAt ? r.editedAt : r.postedAt;
    const cur = by.get(r.author);
    by.set(r.author, { count: (cur?.count ?? 0) + 1, updatedAt: cur && cur.updatedAt > at ? cur.updatedAt : at });
  }
  return [...by.entries()]
    .sort((a, b) => (a[1].updatedAt < b[1].updatedAt ? 1 : -1))
    .map(([userId, v]) => ({ updatedAt: v.updatedAt, count: v.count, user: userOf(pc, userId) }));
}

/** Stored comment -> API `Comment`. */
export function presentComment(pc: PresentContext, c: CommentData) {
  const { scope } = pc;
  return {
    object: 'comment' as const,
    ...presentPost(pc, c, `${scope.basePath}/comments/${c.id}`),
    replies: c.replies.length,
    repliers: repliers(pc, c.replies),
    target: {
      space: scope.spaceId,
      revision: scope.revision,
      ...(scope.changeRequestId ? { changeRequest: scope.changeRequestId } : {}),
      ...(c.target.review ? { review: c.target.review } : {}),
      ...(c.target.page ? { page: pageTarget(pc.pages, c.target.page, c.postedAt) } : {}),
      ...(c.target.node ? { node: { id: c.target.node } } : {}),
      ...(c.target.tableCell ? { tableCell: c.target.tableCell } : {}),
    },
    ...(c.resolvedAt && c.resolvedBy
      ? { status: 'resolved' as const, resolvedAt: c.resolvedAt, resolvedBy: userOf(pc, c.resolvedBy) }
      : { status: 'open' as const }),
  };
}

/** Stored reply -> API `CommentReply`. */
export function presentReply(pc: PresentContext, commentId: string, r: ReplyData) {
  return {
    object: 'comment-reply' as const,
    ...presentPost(pc, r, `${pc.scope.basePath}/comments/${commentId}/replies/${r.id}`),
  };
}
