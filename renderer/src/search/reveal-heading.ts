import { EditorSelection } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { ySyncFacet } from 'y-codemirror.next';
import type * as Y from 'yjs';
import { headingLines } from './sections';

/**
 * Scrolls the page editor to a section's heading after the palette opened
 * its page. The editor belongs to the page view; rather than reaching into
 * it, this finds the CodeMirror view in the DOM (EditorView.findFromDOM)
 * and waits until it is the one bound to the page's Y.Text (y-codemirror's
 * ySyncFacet), since opening a page goes through the router and rebuilds the
 * editor a moment later.
 */

/** How long to wait for the page's editor to appear (opening a page is a route change, then a render). */
const WAIT_FRAMES = 180;

/** The first editor view inside `host` that `wanted` accepts. */
export function findEditor(host: ParentNode, wanted: (view: EditorView) => boolean): EditorView | undefined {
  for (const dom of Array.from(host.querySelectorAll<HTMLElement>('.cm-editor'))) {
    const view = EditorView.findFromDOM(dom);
    if (view && wanted(view)) return view;
  }
  return undefined;
}

/** Whether `view` edits `text` (y-codemirror's binding). */
export function editsText(view: EditorView, text: Y.Text): boolean {
  return view.state.facet(ySyncFacet)?.ytext === text;
}

/** Resolves with the first editor in `host` that `wanted` accepts, once it shows (undefined if none does within a few seconds). */
export function waitForEditor(
  host: ParentNode,
  wanted: (view: EditorView) => boolean,
): Promise<EditorView | undefined> {
  return new Promise((resolve) => {
    let frames = 0;
    const look = () => {
      const view = findEditor(host, wanted);
      if (view || ++frames > WAIT_FRAMES) resolve(view);
      else requestAnimationFrame(look);
    };
    look();
  });
}

/**
 * Puts the cursor at the end of the heading with anchor `sectionId` (else the first heading titled
 * `sectionTitle`, for anchors the line scanner computes differently from the server's parser) and
 * scrolls it to the top of the editor. Returns whether the heading was found. The intro ('') is
 * the top of the page.
 */
export function revealHeading(view: EditorView, sectionId: string, sectionTitle: string): boolean {
  const doc = view.state.doc;
  let line = 0;
  if (sectionId !== '' || sectionTitle !== '') {
    const headings = headingLines(doc.toString());
    const heading =
      headings.find((h) => h.id === sectionId) ?? headings.find((h) => h.title.trim() === sectionTitle.trim());
    if (!heading) return false;
    line = heading.line;
  }
  const target = doc.line(Math.min(line + 1, doc.lines));
  view.dispatch({
    selection: EditorSelection.cursor(target.to),
    effects: EditorView.scrollIntoView(target.from, { y: 'start', yMargin: 24 }),
  });
  view.focus();
  // Live preview may resize lines above once they render (images, tables): scroll again when it settled.
  requestAnimationFrame(() => {
    if (view.dom.isConnected)
      view.dispatch({ effects: EditorView.scrollIntoView(target.from, { y: 'start', yMargin: 24 }) });
  });
  return true;
}
