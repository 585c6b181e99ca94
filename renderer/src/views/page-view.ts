import type { Awareness } from 'y-protocols/awareness';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import { describeError } from '../api/client';
import { PageEditor } from '../editor/page-editor';
import type { FileUrls } from '../preview/file-urls';
import { PreviewPane } from '../preview/preview-pane';
import { empty, h, replace } from '../ui/dom';
import { toast } from '../ui/toast';
import { IMAGE_TYPES } from '../upload/image-upload';

/** What the page view needs from the workspace. */
export interface PageViewDeps {
  content: ContentDoc;
  awareness: Awareness;
  files: FileUrls;
  editable: () => boolean;
  openPage(pageId: string): void;
  createPage(): void;
  /** Uploads an image and returns the markdown to insert. */
  upload(file: File): Promise<string>;
}

/**
 * The open page: its title, a toolbar, the editor and the preview side by
 * side. Switching pages rebinds the editor to the other page's Y.Text.
 */
export class PageView {
  readonly element = h('section', { class: 'page-view', 'data-testid': 'page-view' });
  private readonly title = h('h1', { class: 'page-title', 'data-testid': 'page-title' });
  private readonly panes = h('div', { class: 'panes' });
  private readonly fileInput = h('input', {
    type: 'file',
    accept: IMAGE_TYPES.join(','),
    hidden: true,
    'data-testid': 'image-input',
  });
  private editor: PageEditor | undefined;
  private preview: PreviewPane | undefined;
  private pageId: string | undefined;
  private previewVisible = true;

  constructor(private readonly deps: PageViewDeps) {
    this.fileInput.addEventListener('change', () => {
      const files = Array.from(this.fileInput.files ?? []);
      this.fileInput.value = '';
      void this.insertFiles(files);
    });
    const toolbar = h(
      'div',
      { class: 'toolbar', role: 'toolbar', 'aria-label': 'Page' },
      h(
        'button',
        {
          type: 'button',
          'data-testid': 'insert-image',
          title: 'Insert an image (Ctrl+Alt+I)',
          onclick: () => this.pickImage(),
        },
        'Image…',
      ),
      h(
        'button',
        {
          type: 'button',
          'data-testid': 'toggle-preview',
          title: 'Show or hide the preview (Ctrl+Alt+P)',
          onclick: () => this.togglePreview(),
        },
        'Preview',
      ),
    );
    this.element.append(h('header', { class: 'page-header' }, this.title, toolbar, this.fileInput), this.panes);
  }

  /** The page shown, if any. */
  get current(): string | undefined {
    return this.pageId;
  }

  /** Shows `pageId` (undefined or a missing page: an empty state). */
  show(pageId: string | undefined): void {
    this.teardown();
    this.pageId = pageId && this.deps.content.hasPage(pageId) ? pageId : undefined;
    if (!this.pageId) {
      this.title.textContent = '';
      const message = pageId ? 'This page does not exist (any more).' : 'Select a page, or create one.';
      replace(
        this.panes,
        empty(message, { label: 'New page', run: () => this.deps.createPage(), testid: 'empty-new-page' }),
      );
      return;
    }
    this.refreshTitle();
    const editorHost = h('div', { class: 'editor', 'data-testid': 'editor' });
    replace(this.panes, editorHost);
    const text = this.deps.content.pageBody(this.pageId);
    this.editor = new PageEditor(editorHost, {
      text,
      awareness: this.deps.awareness,
      editable: this.deps.editable(),
      onFiles: (files) => void this.insertFiles(files),
    });
    this.preview = new PreviewPane(text, this.deps.files, (id) => this.deps.openPage(id));
    if (this.previewVisible) this.panes.append(this.preview.element);
  }

  /** Re-reads the title (the tree changed). */
  refreshTitle(): void {
    if (this.pageId) this.title.textContent = this.deps.content.getPage(this.pageId)?.title ?? '';
  }

  /** Shows or hides the rendered preview. */
  togglePreview(): void {
    this.previewVisible = !this.previewVisible;
    if (!this.preview) return;
    if (this.previewVisible) {
      this.preview.render();
      this.panes.append(this.preview.element);
    } else this.preview.element.remove();
  }

  /** Opens the file picker for an image. */
  pickImage(): void {
    if (this.pageId) this.fileInput.click();
  }

  /** Moves focus into the editor. */
  focusEditor(): void {
    this.editor?.focus();
  }

  /** Re-renders the preview (a file's URL became known). */
  refreshPreview(): void {
    this.preview?.schedule();
  }

  /** Removes the editor and preview. */
  destroy(): void {
    this.teardown();
  }

  private async insertFiles(files: File[]): Promise<void> {
    for (const file of files) {
      try {
        toast(`Uploading ${file.name}…`);
        const markdown = await this.deps.upload(file);
        this.editor?.insert(`${markdown}\n`);
      } catch (err) {
        toast(`Could not upload ${file.name}: ${describeError(err)}`, 'error');
      }
    }
  }

  private teardown(): void {
    this.editor?.destroy();
    this.preview?.destroy();
    this.editor = undefined;
    this.preview = undefined;
  }
}
