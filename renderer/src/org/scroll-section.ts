import { EditorView } from '@codemirror/view';
import { AnchorSlugger } from '../../../shared/markdown/slug';

/**
 * Scrolls the open page to a heading whose anchor is `section` (`#install-the-cli` of a search
 * hit's `urls.app`). The editor only draws the lines near the viewport, so the heading is looked up
 * in the editor's document, not in the DOM; a rendered element with that id (a read-only view) also
 * counts. The document may still be arriving, so it retries for a few seconds of frames.
 */
export function scrollToSection(root: HTMLElement, section: string, attempts = 300): void {
  const tick = (left: number) => {
    if (scrollOnce(root, section) || left <= 0 || !root.isConnected) return;
    requestAnimationFrame(() => tick(left - 1));
  };
  tick(attempts);
}

function scrollOnce(root: HTMLElement, section: string): boolean {
  const editor = root.querySelector<HTMLElement>('.cm-editor');
  const view = editor ? EditorView.findFromDOM(editor) : null;
  if (view) {
    const doc = view.state.doc;
    // The server's anchors (search hits' sections): the same slugger, headings in order, so repeats get -1, -2.
    const slugger = new AnchorSlugger();
    let fenced = false;
    for (let n = 1; n <= doc.lines; n++) {
      const line = doc.line(n);
      if (/^\s{0,3}(```|~~~)/.test(line.text)) fenced = !fenced;
      if (fenced || !/^\s{0,3}#{1,6}\s/.test(line.text)) continue;
      if (slugger.slug(headingText(line.text)) === section) {
        view.dispatch({
          selection: { anchor: line.from },
          effects: EditorView.scrollIntoView(line.from, { y: 'start', yMargin: 16 }),
        });
        return true;
      }
    }
  }
  const byId = Array.from(root.querySelectorAll<HTMLElement>('[id]')).find((el) => el.id === section);
  if (byId) byId.scrollIntoView({ block: 'start' });
  return Boolean(byId);
}

/** The plain text of an ATX heading line: no `#` marks, no emphasis or code markers. */
function headingText(line: string): string {
  return line
    .replace(/^\s{0,3}#{1,6}\s+/, '')
    .replace(/\s+#+\s*$/, '')
    .replace(/[*_`~]/g, '')
    .trim();
}
