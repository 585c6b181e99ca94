import type * as Y from 'yjs';
import { h } from '../ui/dom';
import type { FileUrls } from './file-urls';
import { PAGE_LINK_PREFIX, renderMarkdown } from './render-markdown';

/** How long typing must pause before the preview re-renders (keeps keystrokes cheap on long pages). */
const RENDER_DELAY_MS = 150;

/**
 * The rendered preview of the open page, following its Y.Text (local and
 * remote edits alike). Rendering is deferred while the user types.
 */
export class PreviewPane {
  readonly element = h('article', { class: 'preview markdown-body', 'aria-label': 'Preview', 'data-testid': 'preview' });
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly observer = () => this.schedule();

  constructor(
    private readonly text: Y.Text,
    private readonly files: FileUrls,
    openPage: (pageId: string) => void,
  ) {
    text.observe(this.observer);
    this.element.addEventListener('click', (event) => {
      const link = (event.target as HTMLElement).closest('a');
      const href = link?.getAttribute('href');
      if (!href) return;
      event.preventDefault();
      if (href.startsWith(PAGE_LINK_PREFIX)) openPage(href.slice(PAGE_LINK_PREFIX.length));
      else if (/^https?:/i.test(href)) window.open(href, '_blank', 'noopener');
    });
    this.render();
  }

  /** Renders now. */
  render(): void {
    this.timer = undefined;
    // Sanitized by renderMarkdown (hast-util-sanitize); see there.
    this.element.innerHTML = renderMarkdown(this.text.toString(), { fileUrl: (id) => this.files.get(id) });
  }

  /** Renders after typing pauses. */
  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.render(), RENDER_DELAY_MS);
  }

  /** Stops following the text. */
  destroy(): void {
    this.text.unobserve(this.observer);
    if (this.timer) clearTimeout(this.timer);
  }
}
