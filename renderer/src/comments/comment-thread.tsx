import { useState } from 'preact/hooks';
import type { CommentData, PostData } from '../../../shared/discussion/types';
import { Icon } from '../ui/kit/icon';
import type { Outbox, OutboxItem } from './outbox';
import type { People } from './people';

/** The reactions offered on every comment and reply. */
const REACTIONS = ['👍', '❤️', '🎉'];

/** Where a thread's writes go and who writes them. */
export interface ThreadContext {
  outbox: Outbox;
  people: People;
  /** `/spaces/<id>` or `/spaces/<id>/change-requests/<crId>`. */
  path: string;
  userId?: string;
}

/**
 * One comment with its replies and its reply box. The box's text is this component's state:
 * keyed by the comment's id in the list, it survives every update of the discussion.
 */
export function CommentThread(props: { comment: CommentData; pendingReplies: OutboxItem[]; context: ThreadContext }) {
  const { comment: c, context } = props;
  const [reply, setReply] = useState('');
  const resolved = Boolean(c.resolvedAt);
  const send = (event: Event) => {
    event.preventDefault();
    const markdown = reply.trim();
    if (!markdown) return;
    context.outbox.enqueue({ kind: 'reply', path: context.path, commentId: c.id, markdown });
    setReply('');
  };
  return (
    <article class={`comment${resolved ? ' resolved' : ''}`} data-testid="comment" data-comment-id={c.id}>
      <Post post={c} commentId={c.id} context={context} />
      <button
        type="button"
        class="ghost small comment-resolve"
        data-testid="comment-resolve"
        onClick={() =>
          context.outbox.enqueue({
            kind: 'update',
            path: context.path,
            commentId: c.id,
            patch: { resolved: !resolved },
          })
        }
      >
        <Icon name={resolved ? 'rotate-ccw' : 'check'} size={14} />
        {resolved ? 'Reopen' : 'Resolve'}
      </button>
      <div class="replies">
        {c.replies.map((r) => (
          <div key={r.id} class="reply" data-testid="reply">
            <Post post={r} commentId={c.id} replyId={r.id} context={context} />
          </div>
        ))}
        {props.pendingReplies.map((item) => (
          <PendingPost key={item.id} item={item} />
        ))}
      </div>
      <form class="reply-form" onSubmit={send}>
        <input
          type="text"
          placeholder="Reply…"
          aria-label="Reply"
          data-testid="reply-input"
          value={reply}
          onInput={(event) => setReply(event.currentTarget.value)}
        />
      </form>
    </article>
  );
}

/** A comment's or a reply's author line, text and reactions. */
function Post(props: { post: PostData; commentId: string; replyId?: string; context: ThreadContext }) {
  const { post, context } = props;
  const name = context.people.nameOf(post.author);
  const mine = (emoji: string) =>
    post.reactions.some((r) => r.emoji === emoji && r.users.some((u) => u.userId === context.userId));
  const react = (emoji: string) =>
    context.outbox.enqueue({
      kind: 'update',
      path: context.path,
      commentId: props.commentId,
      ...(props.replyId ? { replyId: props.replyId } : {}),
      patch: mine(emoji) ? { removedReactions: [emoji] } : { addedReactions: [emoji] },
    });
  return (
    <div class="post">
      <div class="post-meta">
        <span class="avatar-initial" aria-hidden="true" data-initial={(name.trim()[0] ?? '?').toUpperCase()} />
        <strong>{name}</strong> <time dateTime={post.postedAt}>{formatTime(post.postedAt)}</time>
      </div>
      <div class="post-body" data-testid="comment-body">
        {post.markdown}
      </div>
      <div class="reactions">
        {REACTIONS.map((emoji) => {
          const count = post.reactions.find((r) => r.emoji === emoji)?.users.length ?? 0;
          return (
            <button
              key={emoji}
              type="button"
              class={`reaction${mine(emoji) ? ' mine' : ''}`}
              aria-pressed={mine(emoji)}
              data-testid="reaction"
              onClick={() => react(emoji)}
            >
              {count ? `${emoji} ${count}` : emoji}
            </button>
          );
        })}
      </div>
    </div>
  );
}

/** A queued comment or reply, shown until the server has it (then it arrives through the document). */
export function PendingPost({ item }: { item: OutboxItem }) {
  return (
    <div
      class="comment pending"
      data-testid="comment-pending"
      title="Queued: it will be posted when the server is reachable"
    >
      <div class="post-meta">Queued</div>
      <div class="post-body">{item.op.kind === 'update' ? '' : item.op.markdown}</div>
    </div>
  );
}

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString();
}
