import { syntaxTree } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { CURSOR, insertBlockAt, insertText } from './commands';
import { htmlToMarkdown, worthConverting } from './html-to-markdown';

/**
 * Pasting HTML (a web page, a document) writes markdown: the clipboard's
 * text/html goes through turndown. Files (images) are the page editor's
 * own paste handler's (it runs first and takes them); plain text, HTML
 * without structure (a code editor's coloured spans) and anything pasted
 * into code keep CodeMirror's plain-text paste.
 */
export function htmlPaste() {
  return EditorView.domEventHandlers({
    paste(event, view) {
      const data = event.clipboardData;
      if (!data || data.files.length > 0) return false;
      const html = data.getData('text/html');
      if (!html || !worthConverting(html)) return false;
      const pos = view.state.selection.main.from;
      for (
        let n: ReturnType<typeof syntaxTree>['topNode'] | null = syntaxTree(view.state).resolveInner(pos, -1);
        n;
        n = n.parent
      )
        if (n.name === 'FencedCode' || n.name === 'CodeBlock') return false;
      const markdown = htmlToMarkdown(html);
      if (!markdown) return false;
      event.preventDefault();
      // Several blocks go on lines of their own (blank lines around); a phrase goes inline.
      const { from, to } = view.state.selection.main;
      const spec = markdown.includes('\n')
        ? insertBlockAt(view.state, from, to, `${markdown}\n${CURSOR}`)
        : insertText(view.state, markdown);
      view.dispatch({ ...spec, userEvent: 'input.paste' });
      return true;
    },
  });
}
