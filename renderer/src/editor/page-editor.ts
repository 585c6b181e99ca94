import * as Y from 'yjs';
import { EditorState, type Extension } from '@codemirror/state';
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
import { markdown } from '@codemirror/lang-markdown';
import { defaultKeymap, indentWithTab } from '@codemirror/commands';
import { yCollab, yUndoManagerKeymap } from 'y-codemirror.next';
import type { Awareness } from 'y-protocols/awareness';

/**
 * The markdown editor of one page: CodeMirror 6 bound to the page's Y.Text
 * by y-codemirror.next, which also draws collaborators' cursors and names
 * from the awareness states. Undo/redo is Yjs's UndoManager (it only undoes
 * this user's own edits, never a collaborator's).
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
    markdown(),
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
}

/** A CodeMirror view bound to a page body. */
export class PageEditor {
  readonly view: EditorView;
  private readonly undoManager: Y.UndoManager;

  constructor(parent: HTMLElement, options: PageEditorOptions) {
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
          keymap.of(yUndoManagerKeymap),
          ...baseEditorExtensions(),
          yCollab(options.text, options.awareness, { undoManager: this.undoManager }),
          fileHandlers,
          EditorView.editable.of(options.editable ?? true),
          EditorView.contentAttributes.of({ 'aria-label': 'Page content (markdown)', 'data-testid': 'editor-content' }),
        ],
      }),
    });
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
