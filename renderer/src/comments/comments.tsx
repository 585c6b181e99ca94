import type { Ref } from 'preact';
import { useState } from 'preact/hooks';
import { EmptyState } from '../ui/kit/async-section';
import { Icon } from '../ui/kit/icon';
import type { DocSession } from '../sync/doc-session';
import { CommentThread, PendingPost, type ThreadContext } from './comment-thread';
import type { Outbox } from './outbox';
import type { People } from './people';
import { useDiscussion, useOutboxItems } from './use-discussion';

export interface CommentsProps {
  /** The live discussion document (read-only: the server writes it). */
  discussion: DocSession;
  outbox: Outbox;
  people: People;
  /** `/spaces/<id>` or `/spaces/<id>/change-requests/<crId>`: where writes are posted. */
  path: string;
  userId?: string;
  /** The open page (a comment needs a page to attach to). */
  pageId: string | undefined;
  /** The new-comment box, for the "comment" shortcut to focus. */
  inputRef?: Ref<HTMLTextAreaElement>;
}

/** The panel's attributes, shared with the element the legacy CommentsPanel mounts into. */
export const COMMENTS_SECTION = { class: 'comments', 'aria-label': 'Comments', 'data-testid': 'comments-panel' };

/**
 * Comments on the open page: read live from the discussion document (so they are there offline
 * too, from IndexedDB), written through the outbox (REST, queued while offline). Queued writes
 * show as pending until the server has them — then they arrive through the document and the
 * pending entry goes.
 */
export function Comments(props: CommentsProps) {
  return (
    <section {...COMMENTS_SECTION}>
      <CommentsContent {...props} />
    </section>
  );
}

/** The panel's content (header, list, form), without its section. */
export function CommentsContent(props: CommentsProps) {
  const [showResolved, setShowResolved] = useState(false);
  return (
    <>
      <header class="panel-header">
        <h2>
          <Icon name="message" />
          Comments
        </h2>
        <label class="toggle">
          <input
            type="checkbox"
            checked={showResolved}
            onChange={(event) => setShowResolved(event.currentTarget.checked)}
          />{' '}
          Show resolved
        </label>
      </header>
      <CommentList {...props} showResolved={showResolved} />
      {props.pageId && <NewComment {...props} pageId={props.pageId} />}
    </>
  );
}

function CommentList(props: CommentsProps & { showResolved: boolean }) {
  const discussion = useDiscussion(props.discussion);
  const queued = useOutboxItems(props.outbox);
  const { pageId, path } = props;
  if (!pageId)
    return (
      <div class="comment-list">
        <EmptyState message="Open a page to see its comments." />
      </div>
    );
  const comments = discussion
    .listComments()
    .filter((c) => c.target.page === pageId && (props.showResolved || !c.resolvedAt));
  const pending = queued.filter((i) => i.op.path === path && i.op.kind === 'comment' && i.op.page === pageId);
  const context: ThreadContext = { outbox: props.outbox, people: props.people, path, userId: props.userId };
  return (
    <div class="comment-list">
      {comments.length === 0 && pending.length === 0 && <EmptyState message="No comments on this page yet." />}
      {comments.map((c) => (
        <CommentThread
          key={c.id}
          comment={c}
          context={context}
          pendingReplies={queued.filter((i) => i.op.kind === 'reply' && i.op.commentId === c.id)}
        />
      ))}
      {pending.map((item) => (
        <PendingPost key={item.id} item={item} />
      ))}
    </div>
  );
}

/** The new-comment box; its text is kept across every update of the list above. */
function NewComment(props: CommentsProps & { pageId: string }) {
  const [text, setText] = useState('');
  const post = () => {
    const markdown = text.trim();
    if (!markdown) return;
    props.outbox.enqueue({ kind: 'comment', path: props.path, page: props.pageId, markdown });
    setText('');
  };
  return (
    <form
      class="comment-form"
      data-testid="comment-form"
      onSubmit={(event) => {
        event.preventDefault();
        post();
      }}
    >
      <textarea
        ref={props.inputRef}
        rows={3}
        placeholder="Add a comment… (Ctrl+Enter to post)"
        aria-label="New comment"
        data-testid="comment-input"
        value={text}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            post();
          }
        }}
      />
      <button type="submit" class="primary" data-testid="comment-post">
        <Icon name="send" size={14} />
        Comment
      </button>
    </form>
  );
}
