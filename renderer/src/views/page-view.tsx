import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Awareness } from 'y-protocols/awareness';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import { describeError, type ApiClient } from '../api/client';
import { AuthoringToolbar, authoringExtensions, type ToolbarHost } from '../editor/authoring';
import { CURSOR, insertBlockAt } from '../editor/authoring/commands';
import { linkablePages } from '../editor/authoring/space-pages';
import { openApiCatalogExtension } from '../editor/openapi/catalog';
import { integrationBlocksExtension } from '../editor/integrations/catalog';
import { PageEditor } from '../editor/page-editor';
import type { FileUrls } from '../preview/file-urls';
import { PreviewPane } from '../preview/preview-pane';
import { EmptyState } from '../ui/kit/async-section';
import { Imperative } from '../ui/kit/imperative';
import { toast } from '../ui/toast';
import { IMAGE_TYPES } from '../upload/image-upload';

/** What the workspace asks of the open page's view (shortcuts, menu commands, the palette). */
export interface PageViewHandle {
  togglePreview(): void;
  pickImage(): void;
  focusEditor(): void;
  /** Re-renders the previews (a file's URL became known). */
  refreshPreview(): void;
}

/** What the page view needs from the workspace. */
export interface PageViewProps {
  content: ContentDoc;
  awareness: Awareness;
  files: FileUrls;
  /** The page shown; undefined or missing: an empty state. */
  pageId: string | undefined;
  editable: boolean;
  openPage(pageId: string): void;
  createPage(): void;
  /** Uploads an image and returns the markdown to insert. */
  upload(file: File): Promise<string>;
  /** The page header (page-header/). */
  header: ComponentChildren;
  /** Filled with the view's commands while it is mounted. */
  handle: { current: PageViewHandle | undefined };
  /** The organization's OpenAPI specs, for API operation cards' summaries and the spec picker (online). */
  openApi?: { api: ApiClient; orgId: string };
  /** The space whose installed integrations' blocks the `/` menu lists and the preview renders (none: offline). */
  integrations?: { api: ApiClient; spaceId: string };
}

/** The id of the file an uploaded image's markdown (`![alt](/files/<id>)`) shows. */
export function uploadedFileId(markdown: string): string | undefined {
  return /\]\(\/files\/([A-Za-z0-9_-]{1,64})\)/.exec(markdown)?.[1];
}

/**
 * The open page: its header, the formatting toolbar, and the editor (live preview, or raw
 * markdown with the Source toggle), with the rendered reading view beside it on demand.
 * The editor (CodeMirror bound to the page's Y.Text) and the preview are not Preact's: they are
 * hosted through `Imperative`, rebuilt when the page changes.
 */
export function PageView(props: PageViewProps) {
  const { content, pageId: wanted } = props;
  const pageId = wanted && content.hasPage(wanted) ? wanted : undefined;
  /** The reading view (rendered preview beside the editor): off, live preview is the default. */
  const [reading, setReading] = useState(false);
  /** Source mode is kept when switching pages. */
  const sourceMode = useRef(false);
  const editor = useRef<PageEditor>();
  const preview = useRef<PreviewPane>();
  const fileInput = useRef<HTMLInputElement>(null);
  const latest = useRef(props);
  latest.current = props;

  const toggleReading = () => setReading((on) => !on);
  /** Source mode (raw markdown), mirrored on the toolbar's toggle; kept when switching pages. */
  const [source, setSource] = useState(false);
  const toolbarHost: ToolbarHost = {
    view: () => editor.current?.view,
    action: (id) => runAction(id),
    setSource: (on) => {
      sourceMode.current = on;
      setSource(on);
      editor.current?.setSourceMode(on);
    },
    toggleReading,
  };

  const pickImage = () => {
    if (latest.current.pageId) fileInput.current?.click();
  };
  const runAction = (id: string) => {
    if (id === 'image') pickImage();
  };

  useEffect(() => {
    props.handle.current = {
      togglePreview: toggleReading,
      pickImage,
      focusEditor: () => editor.current?.focus(),
      refreshPreview: () => {
        preview.current?.schedule();
        editor.current?.refresh();
      },
    };
    return () => {
      props.handle.current = undefined;
    };
  }, [props.handle]);

  const insertFiles = async (files: File[]) => {
    for (const file of files) {
      const uploading = toast(`Uploading ${file.name}…`);
      try {
        const markdown = await latest.current.upload(file).finally(uploading);
        // Shown from the bytes at once; the server's URL takes over after the next revision.
        const fileId = uploadedFileId(markdown);
        if (fileId) latest.current.files.remember(fileId, file);
        const view = editor.current?.view;
        if (!view) continue;
        // On a line of its own, blank lines around it: right under a table it would become a row.
        const { from, to } = view.state.selection.main;
        view.dispatch({ ...insertBlockAt(view.state, from, to, `${markdown}\n${CURSOR}`), userEvent: 'input.paste' });
        view.focus();
      } catch (err) {
        toast(`Could not upload ${file.name}: ${describeError(err)}`, 'error');
      }
    }
  };

  const createEditor = (host: HTMLElement) => {
    if (!pageId) return;
    const { files } = latest.current;
    const created = new PageEditor(host, {
      text: content.pageBody(pageId),
      awareness: latest.current.awareness,
      editable: latest.current.editable,
      onFiles: (dropped) => void insertFiles(dropped),
      // Live preview: `/files/<id>` images through the signed-URL cache, `/pages/<id>` links in the app.
      resolveFile: (src) => {
        const fileId = /^\/files\/([A-Za-z0-9_-]{1,64})$/.exec(src)?.[1];
        return fileId ? files.get(fileId) : src;
      },
      openPage: (id) => latest.current.openPage(id),
      onSourceModeChange: (on) => {
        sourceMode.current = on;
        setSource(on);
      },
      extensions: [
        authoringExtensions({ pages: () => linkablePages(content.ydoc), action: runAction }),
        latest.current.openApi ? openApiCatalogExtension(latest.current.openApi.api, latest.current.openApi.orgId) : [],
        latest.current.integrations
          ? integrationBlocksExtension(latest.current.integrations.api, latest.current.integrations.spaceId)
          : [],
      ],
    });
    if (sourceMode.current) created.setSourceMode(true);
    editor.current = created;
    return () => {
      created.destroy();
      if (editor.current === created) editor.current = undefined;
    };
  };

  const createPreview = (host: HTMLElement) => {
    if (!pageId) return;
    const pane = new PreviewPane(content.pageBody(pageId), latest.current.files, (id) => latest.current.openPage(id));
    host.append(pane.element);
    preview.current = pane;
    return () => {
      pane.destroy();
      if (preview.current === pane) preview.current = undefined;
    };
  };

  return (
    <main class="page-view" data-testid="page-view">
      <header class="page-header">
        {pageId && props.header}
        <input
          ref={fileInput}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          hidden
          data-testid="image-input"
          onChange={(event) => {
            const input = event.currentTarget;
            const picked = Array.from(input.files ?? []);
            input.value = '';
            void insertFiles(picked);
          }}
        />
      </header>
      <AuthoringToolbar
        host={toolbarHost}
        source={source}
        reading={reading}
        enabled={props.editable}
        hidden={!pageId}
      />
      <div class={`panes${reading && pageId ? ' panes-reading' : ''}`}>
        {pageId ? (
          <>
            <Imperative
              key={`editor:${pageId}`}
              class="editor"
              testid="editor"
              deps={[content, pageId]}
              create={createEditor}
            />
            {reading && (
              <Imperative key={`preview:${pageId}`} class="slot" deps={[content, pageId]} create={createPreview} />
            )}
          </>
        ) : (
          <EmptyState
            message={wanted ? 'This page does not exist (any more).' : 'Select a page, or create one.'}
            action={{ label: 'New page', run: () => props.createPage(), testid: 'empty-new-page' }}
          />
        )}
      </div>
    </main>
  );
}
