import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import type { EditorState } from '@codemirror/state';

/**
 * `[[` or `@` then a few letters of a page's title: a list of the space's
 * pages, and choosing one writes a markdown link to it in the canonical form
 * Folio writes for internal links, `[Title](/pages/<id>)` (see
 * shared/markdown/links.ts): the server resolves it, Git sync rewrites it
 * to the page's relative path, the preview makes it an in-app link.
 */

/** A page the completion can link to. */
export interface LinkablePage {
  id: string;
  title: string;
  /** Emoji of the page, shown beside its title. */
  emoji?: string;
  /** Titles of its ancestors, to tell same-named pages apart. */
  path?: string;
}

/** The trigger and query the cursor ends: `[[query` anywhere, `@query` at a line start or after a space. */
export function pageLinkQueryAt(state: EditorState, pos: number): { from: number; query: string } | null {
  const line = state.doc.lineAt(pos);
  const before = line.text.slice(0, pos - line.from);
  const wiki = /\[\[([^\]\n]{0,60})$/.exec(before);
  if (wiki) return { from: pos - wiki[0].length, query: wiki[1]! };
  const mention = /(?:^|\s)@([^\s@]{0,60})$/.exec(before);
  if (mention) return { from: pos - mention[1]!.length - 1, query: mention[1]! };
  return null;
}

/** The markdown link to a page (brackets in its title would end the link text early, so they are escaped). */
export function pageLinkMarkdown(page: LinkablePage): string {
  const text = (page.title || 'Untitled').replace(/([[\]\\])/g, '\\$1');
  return `[${text}](/pages/${page.id})`;
}

/** The pages whose title matches `query` (word starts first, then anywhere), at most `limit`. */
export function matchPages(query: string, pages: readonly LinkablePage[], limit = 20): LinkablePage[] {
  const q = query.trim().toLowerCase();
  const scored = pages
    .map((page, rank) => {
      const title = page.title.toLowerCase();
      let s = -1;
      if (!q || title.startsWith(q)) s = 0;
      else if (title.split(/[\s\-_/]+/).some((w) => w.startsWith(q))) s = 1;
      else if (title.includes(q)) s = 2;
      return { page, rank, s };
    })
    .filter((x) => x.s >= 0)
    .sort((a, b) => a.s - b.s || a.rank - b.rank);
  return scored.slice(0, limit).map((x) => x.page);
}

/** The completion source of page links; `pages` is read on each query (the tree changes). */
export function pageLinkCompletions(pages: () => readonly LinkablePage[]) {
  const source = (context: CompletionContext): CompletionResult | null => {
    const found = pageLinkQueryAt(context.state, context.pos);
    if (!found) return null;
    const options: Completion[] = matchPages(found.query, pages()).map((page, rank) => ({
      label: context.state.sliceDoc(found.from, context.pos),
      displayLabel: `${page.emoji ? `${page.emoji} ` : ''}${page.title || 'Untitled'}`,
      detail: page.path,
      type: 'folio-page-link',
      boost: 99 - rank,
      apply: (view, _completion, from, to) => {
        // `[[Title` may already have its closing `]]` typed after the cursor (bracket pairs): take it too.
        const after = view.state.sliceDoc(to, to + 2);
        const end = view.state.sliceDoc(from, from + 2) === '[[' && after === ']]' ? to + 2 : to;
        const link = pageLinkMarkdown(page);
        view.dispatch({
          changes: { from, to: end, insert: link },
          selection: { anchor: from + link.length },
          userEvent: 'input.complete',
        });
      },
    }));
    if (options.length === 0) return null;
    // Our own ranking, redone synchronously as the query grows (see slash-menu.ts).
    return { from: found.from, options, filter: false, update: (_current, _from, _to, next) => source(next) };
  };
  return source;
}
