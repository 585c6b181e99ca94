import type { Awareness } from 'y-protocols/awareness';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import { describeError } from '../api/client';
import { AuthoringToolbar, authoringExtensions } from '../editor/authoring';
import { CURSOR, insertBlockAt } from '../editor/authoring/commands';
import { linkablePages } from '../editor/authoring/space-pages';
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
  /** The page header (page-header/), shown in place of the plain title when given. */
  header?: HTMLElement;
}

/** The id of the file an uploaded image's markdown (`![alt](/files/<id>)`) shows. */
export function uploadedFileId(markdown: string): string | undefined {
  return /\]\(\/files\/([A-Za-z0-9_-]{1,64})\)/.exec(markdown)?.[1];
}

/**
 * The open page: its title, the formatting toolbar, and the editor (live
 * preview, or raw markdown with the Source toggle), with the rendered
 * reading view beside it on demand. Switching pages rebinds the editor to
 * the other page's Y.Text.
 */
export class PageView {
  readonly element = h('main', { class: 'page-view', 'data-testid': 'page-view' });
  private readonly title = h('h1', { class: 'page-title', 'data-testid': 'page-title' });
  private readonly panes = h('div', { class: 'panes' });
  private readonly fileInput = h('input', {
    type: 'file',
    accept: IMAGE_TYPES.join(','),
    hidden: true,
    'data-testid': 'image-input',
  });
  private readonly toolbar: AuthoringToolbar;
  private editor: PageEditor | undefined;
  private preview: PreviewPane | undefined;
  private pageId: string | undefined;
  /** The reading view (rendered preview beside the editor): off, live preview is the default. */
  private previewVisible = false;
  private sourceMode = false;

  constructor(private readonly deps: PageViewDeps) {
    this.fileInput.addEventListener('change', () => {
      const files = Array.from(this.fileInput.files ?? []);
      this.fileInput.value = '';
      void this.insertFiles(files);
    });
    this.toolbar = new AuthoringToolbar({
      view: () => this.editor?.view,
      action: (id) => this.runAction(id),
      setSource: (on) => this.setSourceMode(on),
      toggleReading: () => this.togglePreview(),
    });
    this.toolbar.element.hidden = true;
    this.element.append(
      h('header', { class: 'page-header' }, this.deps.header ?? this.title, this.fileInput),
      this.toolbar.element,
      this.panes,
    );
  }

  /** The page shown, if any. */
  get current(): string | undefined {
    return this.pageId;
  }

  /** Shows `pageId` (undefined or a missing page: an empty state). */
  show(pageId: string | undefined): void {
    this.teardown();
    this.pageId = pageId && this.deps.content.hasPage(pageId) ? pageId : undefined;
    this.toolbar.element.hidden = !this.pageId;
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
    const editable = this.deps.editable();
    this.editor = new PageEditor(editorHost, {
      text,
      awareness: this.deps.awareness,
      editable,
      onFiles: (files) => void this.insertFiles(files),
      // Live preview: `/files/<id>` images through the signed-URL cache, `/pages/<id>` links in the app.
      resolveFile: (src) => {
        const fileId = /^\/files\/([A-Za-z0-9_-]{1,64})$/.exec(src)?.[1];
        return fileId ? this.deps.files.get(fileId) : src;
      },
      openPage: (id) => this.deps.openPage(id),
      onSourceModeChange: (on) => {
        this.sourceMode = on;
        this.toolbar.reflectSource(on);
      },
      extensions: authoringExtensions({
        pages: () => linkablePages(this.deps.content.ydoc),
        action: (id) => this.runAction(id),
      }),
    });
    this.toolbar.setEnabled(editable);
    if (this.sourceMode) this.applySourceMode();
    this.preview = new PreviewPane(text, this.deps.files, (id) => this.deps.openPage(id));
    if (this.previewVisible) this.panes.append(this.preview.element);
    this.panes.classList.toggle('panes-reading', this.previewVisible);
  }

  /** Re-reads the title (the tree changed). */
  refreshTitle(): void {
    if (this.pageId) this.title.textContent = this.deps.content.getPage(this.pageId)?.title ?? '';
  }

  /** Shows or hides the rendered preview. */
  togglePreview(): void {
    this.previewVisible = !this.previewVisible;
    this.toolbar.setReading(this.previewVisible);
    this.panes.classList.toggle('panes-reading', this.previewVisible);
    if (!this.preview) return;
    if (this.previewVisible) {
      this.preview.render();
      this.panes.append(this.preview.element);
    } else this.preview.element.remove();
  }

  /** Shows the raw markdown (true) or the live preview (false); kept when switching pages. */
  setSourceMode(on: boolean): void {
    this.sourceMode = on;
    this.applySourceMode();
  }

  /** Opens the file picker for an image. */
  pickImage(): void {
    if (this.pageId) this.fileInput.click();
  }

  /** Moves focus into the editor. */
  focusEditor(): void {
    this.editor?.focus();
  }

  /** Re-renders the previews (a file's URL became known). */
  refreshPreview(): void {
    this.preview?.schedule();
    this.editor?.refresh();
  }

  /** Removes the editor and preview. */
  destroy(): void {
    this.teardown();
    this.toolbar.destroy();
    this.deps.files.destroy();
  }

  private applySourceMode(): void {
    this.editor?.setSourceMode(this.sourceMode);
  }

  private runAction(id: string): void {
    if (id === 'image') this.pickImage();
  }

  private async insertFiles(files: File[]): Promise<void> {
    for (const file of files) {
      const uploading = toast(`Uploading ${file.name}…`);
      try {
        const markdown = await this.deps.upload(file).finally(uploading);
        // Shown from the bytes at once; the server's URL takes over after the next revision.
        const fileId = uploadedFileId(markdown);
        if (fileId) this.deps.files.remember(fileId, file);
        const view = this.editor?.view;
        if (!view) continue;
        // On a line of its own, blank lines around it: right under a table it would become a row.
        const { from, to } = view.state.selection.main;
        view.dispatch({ ...insertBlockAt(view.state, from, to, `${markdown}\n${CURSOR}`), userEvent: 'input.paste' });
        view.focus();
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
