import * as Y from 'yjs';
import { IndexeddbPersistence } from 'y-indexeddb';
import { Awareness } from 'y-protocols/awareness';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { ContentDoc } from '../../shared/doc/content-doc';
import { TreeModel } from '../../renderer/src/tree/tree-model';
import { PageTreeView } from '../../renderer/src/tree/page-tree';
import { PageEditor, baseEditorExtensions } from '../../renderer/src/editor/page-editor';
import { h } from '../../renderer/src/ui/dom';

/**
 * Browser side of test/bench/desktop.ts (bundled by Vite, run in headless
 * Chromium): the app's own modules (TreeModel + PageTreeView, PageEditor)
 * next to baselines without Yjs, exposed on `window.bench`.
 */

const host = document.getElementById('host')!;

/** Resolves after the next frame has been painted (rAF, then a task after it). */
const afterPaint = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));

/** Nested outline as plain JSON (the baseline's input). */
interface JsonPage {
  id: string;
  title: string;
  children: JsonPage[];
}

type EditorKind = 'yjs' | 'live' | 'bare';
let editorView: EditorView | undefined;
let pageEditor: PageEditor | undefined;
const latencies: number[] = [];
/** Keydown -> the editor's update done (its DOM synced): the editor's own work per keystroke, not rounded to frames. */
const handling: number[] = [];
let keyAt = 0;
const handled = EditorView.updateListener.of((u) => {
  if (u.docChanged && keyAt) handling.push(performance.now() - keyAt);
  keyAt = 0;
});

const bench = {
  /** Stores a content document update in IndexedDB under `name` (as the app would after a sync). */
  async seed(name: string, update: number[]): Promise<void> {
    const doc = new Y.Doc();
    const persistence = new IndexeddbPersistence(name, doc);
    await persistence.whenSynced;
    Y.applyUpdate(doc, Uint8Array.from(update));
    await new Promise((r) => setTimeout(r, 300)); // y-indexeddb writes in its own transaction
    await persistence.destroy();
  },

  /** App path: IndexedDB -> Y.Doc -> TreeModel -> PageTreeView, until painted. Returns [ms, rows]. */
  async openFromIndexedDb(name: string): Promise<[number, number]> {
    const start = performance.now();
    const doc = new Y.Doc();
    const persistence = new IndexeddbPersistence(name, doc);
    await persistence.whenSynced;
    const model = new TreeModel(doc);
    const view = new PageTreeView(model, new ContentDoc(doc), () => undefined);
    host.replaceChildren(view.element);
    await afterPaint();
    const ms = performance.now() - start;
    const rows = host.querySelectorAll('[data-testid=tree-row]').length;
    view.destroy();
    model.destroy();
    await persistence.destroy();
    return [ms, rows];
  },

  /** Baseline: the same rows from plain JSON (no Yjs, no IndexedDB), until painted. Returns [ms, rows]. */
  async renderFromJson(json: string): Promise<[number, number]> {
    const start = performance.now();
    const roots = JSON.parse(json) as JsonPage[];
    const level = (pages: JsonPage[]): HTMLElement =>
      h(
        'ul',
        {},
        ...pages.map((p) =>
          h(
            'li',
            {},
            h(
              'div',
              { class: 'tree-row', 'data-testid': 'tree-row', draggable: 'true' },
              h('span', {}, p.title),
              h('span', {}, h('button', {}, '+'), h('button', {}, '✎'), h('button', {}, '✕')),
            ),
            p.children.length ? level(p.children) : null,
          ),
        ),
      );
    host.replaceChildren(h('nav', {}, h('input', { type: 'search' }), level(roots)));
    await afterPaint();
    return [performance.now() - start, host.querySelectorAll('[data-testid=tree-row]').length];
  },

  /**
   * Opens an editor on `text`: the app's PageEditor bound to a Y.Text, with live preview
   * ('live', the default look) or in source mode ('yjs'), or bare CodeMirror (baseline).
   */
  openEditor(kind: EditorKind, text: string): void {
    pageEditor?.destroy();
    editorView?.destroy();
    pageEditor = undefined;
    host.replaceChildren();
    if (kind === 'yjs' || kind === 'live') {
      const doc = new Y.Doc();
      const body = new ContentDoc(doc).pageBody(new ContentDoc(doc).createPage({ title: 'Long page', markdown: text }));
      pageEditor = new PageEditor(host, { text: body, awareness: new Awareness(doc), extensions: [handled] });
      if (kind === 'yjs') pageEditor.setSourceMode(true);
      editorView = pageEditor.view;
    } else {
      editorView = new EditorView({
        parent: host,
        state: EditorState.create({ doc: text, extensions: [...baseEditorExtensions(), handled] }),
      });
    }
    // Type in the middle of a plain paragraph line (not inside a table or code block).
    const middle = editorView.state.doc.lineAt(Math.floor(text.length / 2));
    let line = middle;
    while (!line.text.startsWith('A line') && line.number < editorView.state.doc.lines)
      line = editorView.state.doc.line(line.number + 1);
    editorView.dispatch({ selection: { anchor: Math.min(line.from + 6, line.to) }, scrollIntoView: true });
    editorView.focus();
    latencies.length = 0;
    handling.length = 0;
  },

  /** How many live-preview decorations are drawn (proves the live editor renders them). */
  livePreviewWidgets(): number {
    return host.querySelectorAll('.cm-lp-h, .cm-lp-bullet, .cm-lp-table-wrap, .cm-lp-code').length;
  },

  /** Keystroke-to-paint latencies recorded so far (ms), the editor's length, and keystroke handling times (ms). */
  latencies(): [number[], number, number[]] {
    return [latencies.slice(), editorView?.state.doc.length ?? 0, handling.slice()];
  },
};

// Keystroke -> paint: from the key event's timestamp to the frame after the editor handled it.
window.addEventListener('keydown', (event) => {
  const t0 = event.timeStamp;
  keyAt = t0;
  requestAnimationFrame(() => setTimeout(() => latencies.push(performance.now() - t0), 0));
});

(window as unknown as { bench: typeof bench }).bench = bench;
