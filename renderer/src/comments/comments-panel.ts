import { DiscussionDoc } from '../../../shared/discussion/discussion-doc';
import type { CommentData, PostData } from '../../../shared/discussion/types';
import { empty, h, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import type { Outbox, OutboxItem } from './outbox';
import type { People } from './people';
import type { DocSession } from '../sync/doc-session';

/** The reactions offered on every comment and reply. */
const REACTIONS = ['👍', '❤️', '🎉'];

/** Options of a CommentsPanel. */
export interface CommentsPanelOptions {
  /** The live discussion document (read-only: the server writes it). */
  discussion: DocSession;
  outbox: Outbox;
  people: People;
  /** `/spaces/<id>` or `/spaces/<id>/change-requests/<crId>`: where writes are posted. */
  path: string;
  userId?: string;
}

/**
 * Comments on the open page: read live from the discussion document (so they
 * are there offline too, from IndexedDB), written through the outbox (REST,
 * queued while offline). Queued writes show as pending until the server has
 * them — then they arrive through the document and the pending entry goes.
 */
export class CommentsPanel {
  readonly element = h('section', { class: 'comments', 'aria-label': 'Comments', 'data-testid': 'comments-panel' });
  private readonly list = h('div', { class: 'comment-list' });
  /** The new-comment form: hidden until a page is open (a comment needs a page to attach to). */
  private readonly form: HTMLFormElement;
  private readonly input = h('textarea', {
    rows: 3,
    placeholder: 'Add a comment… (Ctrl+Enter to post)',
    'aria-label': 'New comment',
    'data-testid': 'comment-input',
  });
  private discussion: DiscussionDoc;
  private page: string | undefined;
  private showResolved = false;
  private readonly offs: (() => void)[] = [];

  constructor(private readonly options: CommentsPanelOptions) {
    this.discussion = new DiscussionDoc(options.discussion.doc);
    const post = () => this.post();
    this.input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        post();
      }
    });
    const resolvedToggle = h(
      'label',
      { class: 'toggle' },
      h('input', {
        type: 'checkbox',
        onchange: (e: Event) => ((this.showResolved = (e.target as HTMLInputElement).checked), this.render()),
      }),
      ' Show resolved',
    );
    this.form = h(
      'form',
      {
        class: 'comment-form',
        hidden: true,
        'data-testid': 'comment-form',
        onsubmit: (e: Event) => (e.preventDefault(), post()),
      },
      this.input,
      h(
        'button',
        { type: 'submit', class: 'primary', 'data-testid': 'comment-post' },
        icon('send', { size: 14 }),
        'Comment',
      ),
    );
    this.element.append(
      h('header', { class: 'panel-header' }, h('h2', {}, icon('message'), 'Comments'), resolvedToggle),
      this.list,
      this.form,
    );
    const rerender = () => this.render();
    options.discussion.doc.on('update', rerender);
    this.offs.push(
      () => options.discussion.doc.off('update', rerender),
      options.outbox.onChange(rerender),
      // The local copy was dropped for the server's (see DocSession): follow the new document.
      options.discussion.onReplaced((doc) => {
        this.discussion = new DiscussionDoc(doc);
        doc.on('update', rerender);
        rerender();
      }),
    );
    void options.discussion.loaded.then(rerender);
  }

  /** Shows the comments of `pageId`. */
  setPage(pageId: string | undefined): void {
    this.page = pageId;
    this.render();
  }

  /** Focuses the new-comment box. */
  focus(): void {
    this.input.focus();
  }

  /** Stops following the document and the outbox. */
  destroy(): void {
    for (const off of this.offs) off();
  }

  /** Renders the list now. */
  render(): void {
    this.form.hidden = !this.page;
    if (!this.page) {
      replace(this.list, empty('Open a page to see its comments.'));
      return;
    }
    const comments = this.discussion
      .listComments()
      .filter((c) => c.target.page === this.page && (this.showResolved || !c.resolvedAt));
    const pending = this.options.outbox
      .items()
      .filter((i) => i.op.path === this.options.path && i.op.kind === 'comment' && i.op.page === this.page);
    if (comments.length === 0 && pending.length === 0) {
      replace(this.list, empty('No comments on this page yet.'));
      return;
    }
    replace(this.list, ...comments.map((c) => this.renderComment(c)), ...pending.map((i) => this.renderPending(i)));
  }

  private post(): void {
    const markdown = this.input.value.trim();
    if (!markdown || !this.page) return;
    this.options.outbox.enqueue({ kind: 'comment', path: this.options.path, page: this.page, markdown });
    this.input.value = '';
  }

  private renderComment(c: CommentData): HTMLElement {
    const pendingReplies = this.options.outbox.items().filter((i) => i.op.kind === 'reply' && i.op.commentId === c.id);
    const replyInput = h('input', {
      type: 'text',
      placeholder: 'Reply…',
      'aria-label': 'Reply',
      'data-testid': 'reply-input',
    });
    const reply = (e: Event) => {
      e.preventDefault();
      const markdown = replyInput.value.trim();
      if (!markdown) return;
      this.options.outbox.enqueue({ kind: 'reply', path: this.options.path, commentId: c.id, markdown });
      replyInput.value = '';
    };
    const resolved = Boolean(c.resolvedAt);
    return h(
      'article',
      { class: `comment${resolved ? ' resolved' : ''}`, 'data-testid': 'comment', 'data-comment-id': c.id },
      this.renderPost(c, c.id),
      h(
        'button',
        {
          type: 'button',
          class: 'ghost small comment-resolve',
          'data-testid': 'comment-resolve',
          onclick: () =>
            this.options.outbox.enqueue({
              kind: 'update',
              path: this.options.path,
              commentId: c.id,
              patch: { resolved: !resolved },
            }),
        },
        icon(resolved ? 'rotate-ccw' : 'check', { size: 14 }),
        resolved ? 'Reopen' : 'Resolve',
      ),
      h(
        'div',
        { class: 'replies' },
        ...c.replies.map((r) => h('div', { class: 'reply', 'data-testid': 'reply' }, this.renderPost(r, c.id, r.id))),
        ...pendingReplies.map((i) => this.renderPending(i)),
      ),
      h('form', { class: 'reply-form', onsubmit: reply }, replyInput),
    );
  }

  private renderPost(post: PostData, commentId: string, replyId?: string): HTMLElement {
    const mine = (emoji: string) =>
      post.reactions.some((r) => r.emoji === emoji && r.users.some((u) => u.userId === this.options.userId));
    const react = (emoji: string) => {
      const patch = mine(emoji) ? { removedReactions: [emoji] } : { addedReactions: [emoji] };
      this.options.outbox.enqueue({
        kind: 'update',
        path: this.options.path,
        commentId,
        ...(replyId ? { replyId } : {}),
        patch,
      });
    };
    return h(
      'div',
      { class: 'post' },
      h(
        'div',
        { class: 'post-meta' },
        h('span', {
          class: 'avatar-initial',
          'aria-hidden': 'true',
          'data-initial': (this.options.people.nameOf(post.author).trim()[0] ?? '?').toUpperCase(),
        }),
        h('strong', {}, this.options.people.nameOf(post.author)),
        ' ',
        h('time', { datetime: post.postedAt }, formatTime(post.postedAt)),
      ),
      h('div', { class: 'post-body', 'data-testid': 'comment-body' }, post.markdown),
      h(
        'div',
        { class: 'reactions' },
        ...REACTIONS.map((emoji) => {
          const count = post.reactions.find((r) => r.emoji === emoji)?.users.length ?? 0;
          return h(
            'button',
            {
              type: 'button',
              class: `reaction${mine(emoji) ? ' mine' : ''}`,
              'aria-pressed': String(mine(emoji)),
              'data-testid': 'reaction',
              onclick: () => react(emoji),
            },
            count ? `${emoji} ${count}` : emoji,
          );
        }),
      ),
    );
  }

  private renderPending(item: OutboxItem): HTMLElement {
    const markdown = item.op.kind === 'update' ? '' : item.op.markdown;
    return h(
      'div',
      {
        class: 'comment pending',
        'data-testid': 'comment-pending',
        title: 'Queued: it will be posted when the server is reachable',
      },
      h('div', { class: 'post-meta' }, 'Queued'),
      h('div', { class: 'post-body' }, markdown),
    );
  }
}

function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString();
}

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
