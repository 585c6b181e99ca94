import * as Y from 'yjs';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import {
  EditorView,
  drawSelection,
  dropCursor,
  highlightActiveLine,
  highlightSpecialChars,
  keymap,
  placeholder,
} from '@codemirror/view';
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { markdown, markdownLanguage } from '@codemirror/lang-markdown';
import { languages } from '@codemirror/language-data';
import { defaultKeymap, indentWithTab } from '@codemirror/commands';
import { yCollab, yUndoManagerKeymap } from 'y-codemirror.next';
import type { Awareness } from 'y-protocols/awareness';
import { livePreview, refreshLivePreview } from './live-preview/live-preview';
import { editorHighlighting } from './live-preview/highlight';

/**
 * The markdown editor of one page: CodeMirror 6 bound to the page's Y.Text
 * by y-codemirror.next, which also draws collaborators' cursors and names
 * from the awareness states. Undo/redo is Yjs's UndoManager (it only undoes
 * this user's own edits, never a collaborator's).
 *
 * By default the editor shows live preview (./live-preview): markdown syntax
 * is hidden away from the cursor. Source mode (`setSourceMode(true)`, or
 * Ctrl/Cmd+Alt+S in the editor) shows the raw markdown, highlighted.
 */

/** The editing extensions without the Yjs binding (the bench's baseline uses them bare). */
export function baseEditorExtensions(): Extension[] {
  return [
    highlightSpecialChars(),
    drawSelection(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    indentOnInput(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    bracketMatching(),
    highlightActiveLine(),
    EditorView.lineWrapping,
    // GFM (tables, task lists, strikethrough); fenced code is highlighted in its language, loaded on demand.
    markdown({ base: markdownLanguage, codeLanguages: languages }),
    // The standard editing keys (line moves, selection, indent); undo/redo comes from the Yjs UndoManager.
    keymap.of([...defaultKeymap, indentWithTab]),
    placeholder('Write in markdown…'),
  ];
}

/** Options of a PageEditor. */
export interface PageEditorOptions {
  text: Y.Text;
  awareness: Awareness;
  /** Where files dropped or pasted into the editor go (image upload). */
  onFiles?: (files: File[], view: EditorView) => void;
  /** Whether the document accepts edits (false for merged change requests, read-only roles). */
  editable?: boolean;
  /** Extra extensions appended after the editor's own (toolbar, slash menu, autocomplete, paste...). */
  extensions?: Extension[];
  /** The URL of an image or file source (`/files/<id>` -> its download URL), undefined while unknown. */
  resolveFile?: (src: string) => string | undefined;
  /** Opens another page of the space (Ctrl/Cmd+click on a `/pages/<id>` link, content-ref cards). */
  openPage?: (pageId: string) => void;
  /** Called when source mode is switched on or off (e.g. to update a toolbar button). */
  onSourceModeChange?: (sourceMode: boolean) => void;
}

/** A CodeMirror view bound to a page body. */
export class PageEditor {
  readonly view: EditorView;
  private readonly undoManager: Y.UndoManager;
  private readonly mode = new Compartment();
  private source = false;

  constructor(
    parent: HTMLElement,
    private readonly options: PageEditorOptions,
  ) {
    this.undoManager = new Y.UndoManager(options.text);
    const fileHandlers = EditorView.domEventHandlers({
      paste: (event, view) => takeFiles(event.clipboardData, event, view, options.onFiles),
      drop: (event, view) => takeFiles(event.dataTransfer, event, view, options.onFiles),
    });
    this.view = new EditorView({
      parent,
      state: EditorState.create({
        doc: options.text.toString(),
        extensions: [
          keymap.of([{ key: 'Mod-Alt-s', preventDefault: true, run: () => (this.setSourceMode(!this.source), true) }]),
          keymap.of(yUndoManagerKeymap),
          ...baseEditorExtensions(),
          yCollab(options.text, options.awareness, { undoManager: this.undoManager }),
          fileHandlers,
          editorHighlighting(),
          this.mode.of(this.livePreview()),
          EditorView.editable.of(options.editable ?? true),
          EditorView.contentAttributes.of({ 'aria-label': 'Page content (markdown)', 'data-testid': 'editor-content' }),
          ...(options.extensions ?? []),
        ],
      }),
    });
    this.view.dom.dataset.sourceMode = 'false';
  }

  /** Whether the raw markdown is shown (source mode) instead of live preview. */
  get sourceMode(): boolean {
    return this.source;
  }

  /** Switches between source mode (raw markdown, highlighted) and live preview. */
  setSourceMode(on: boolean): void {
    if (on === this.source) return;
    this.source = on;
    this.view.dispatch({ effects: this.mode.reconfigure(on ? [] : this.livePreview()) });
    this.view.dom.dataset.sourceMode = String(on);
    this.options.onSourceModeChange?.(on);
  }

  /** Redraws live preview widgets (e.g. an image's URL became known). */
  refresh(): void {
    this.view.dispatch({ effects: refreshLivePreview.of(null) });
  }

  private livePreview(): Extension {
    const resolve = this.options.resolveFile;
    return livePreview({
      // A file not known yet (just uploaded, URL being signed): look again shortly, so the image shows without a reload.
      resolveFile: resolve
        ? (src) => {
            const url = resolve(src);
            if (url === undefined) this.retryUnresolved();
            return url;
          }
        : undefined,
      openPage: this.options.openPage,
    });
  }

  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retries = 0;
  private retryUnresolved(): void {
    if (this.retryTimer || this.retries >= 40) return;
    this.retries++;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.view.dom.isConnected) this.refresh();
    }, 500);
  }

  /** Inserts text at the cursor (replacing the selection) and keeps focus in the editor. */
  insert(text: string): void {
    const { from, to } = this.view.state.selection.main;
    this.view.dispatch({ changes: { from, to, insert: text }, selection: { anchor: from + text.length } });
    this.view.focus();
  }

  /** Moves keyboard focus into the editor. */
  focus(): void {
    this.view.focus();
  }

  /** Unbinds from the Y.Text and removes the view. */
  destroy(): void {
    clearTimeout(this.retryTimer);
    this.view.destroy();
    this.undoManager.destroy();
  }
}

function takeFiles(
  data: DataTransfer | null,
  event: Event,
  view: EditorView,
  onFiles: PageEditorOptions['onFiles'],
): boolean {
  const files = Array.from(data?.files ?? []);
  if (!onFiles || files.length === 0) return false;
  event.preventDefault();
  onFiles(files, view);
  return true;
}
