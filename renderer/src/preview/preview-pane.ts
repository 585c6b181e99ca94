import type * as Y from 'yjs';
import { h } from '../ui/dom';
import type { FileUrls } from './file-urls';
import { PAGE_LINK_PREFIX } from './page-links';
import type * as RenderMarkdown from './render-markdown';
import './gitbook-blocks.css';

type Renderer = typeof RenderMarkdown;

/**
 * The markdown renderer (parser, GFM, sanitizer) is loaded on first use, as a
 * chunk of its own: the editor can show before it arrives.
 */
let renderer: Promise<Renderer> | undefined;
function loadRenderer(): Promise<Renderer> {
  renderer ??= import('./render-markdown').catch((err: unknown) => {
    renderer = undefined; // let a later render try again
    throw err;
  });
  return renderer;
}

/** How long typing must pause before the preview re-renders (keeps keystrokes cheap on long pages). */
const RENDER_DELAY_MS = 150;

/**
 * The rendered preview of the open page, following its Y.Text (local and
 * remote edits alike). Rendering is deferred while the user types.
 */
export class PreviewPane {
  readonly element = h('article', {
    class: 'preview markdown-body',
    'aria-label': 'Preview',
    'data-testid': 'preview',
  });
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly observer = () => this.schedule();
  private render_: Renderer['renderMarkdown'] | undefined;
  private destroyed = false;

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

  /** Renders now (or as soon as the renderer has loaded). */
  render(): void {
    this.timer = undefined;
    if (!this.render_) {
      if (!this.element.hasChildNodes())
        this.element.append(h('p', { class: 'state state-loading', role: 'status' }, 'Loading the preview…'));
      loadRenderer().then(
        (m) => {
          this.render_ = m.renderMarkdown;
          if (!this.destroyed) this.render();
        },
        () => {
          if (!this.destroyed)
            this.element.replaceChildren(
              h('p', { class: 'state state-error', role: 'alert' }, 'The preview could not be loaded.'),
            );
        },
      );
      return;
    }
    // Sanitized by renderMarkdown (hast-util-sanitize); see there.
    this.element.innerHTML = this.render_(this.text.toString(), { fileUrl: (id) => this.files.get(id) });
  }

  /** Renders after typing pauses. */
  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.render(), RENDER_DELAY_MS);
  }

  /** Stops following the text. */
  destroy(): void {
    this.destroyed = true;
    this.text.unobserve(this.observer);
    if (this.timer) clearTimeout(this.timer);
  }
}
