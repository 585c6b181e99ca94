import { createRef, render } from 'preact';
import type { DocSession } from '../sync/doc-session';
import { COMMENTS_SECTION, CommentsContent, type CommentsProps } from './comments';
import type { Outbox } from './outbox';
import type { People } from './people';

export { Comments, type CommentsProps } from './comments';
export { alreadyDelivered } from './delivered';

/** Options of a CommentsPanel. */
export interface CommentsPanelOptions {
  discussion: DocSession;
  outbox: Outbox;
  people: People;
  path: string;
  userId?: string;
}

/**
 * The comments panel for code that is not Preact (the workspace, while it moves to components):
 * `element` holds the `Comments` component, which `destroy()` unmounts. Components render
 * `<Comments pageId=… />` instead.
 */
export class CommentsPanel {
  readonly element: HTMLElement = document.createElement('section');
  private readonly input = createRef<HTMLTextAreaElement>();
  private props: CommentsProps;
  private destroyed = false;

  constructor(options: CommentsPanelOptions) {
    for (const [name, value] of Object.entries(COMMENTS_SECTION)) this.element.setAttribute(name, value);
    this.props = { ...options, pageId: undefined, inputRef: this.input };
    this.render();
  }

  /** Shows the comments of `pageId`. */
  setPage(pageId: string | undefined): void {
    this.props = { ...this.props, pageId };
    this.render();
  }

  /** Focuses the new-comment box. */
  focus(): void {
    this.input.current?.focus();
  }

  /** Renders the panel now (it also follows the document, the outbox and the names by itself). */
  render(): void {
    // A late call (names arriving after the workspace closed) must not mount it again.
    if (this.destroyed) return;
    render(<CommentsContent {...this.props} />, this.element);
  }

  /** Unmounts the panel: it stops following the document and the outbox. */
  destroy(): void {
    this.destroyed = true;
    render(null, this.element);
  }
}
