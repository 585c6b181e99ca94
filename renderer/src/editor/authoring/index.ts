import { autocompletion } from '@codemirror/autocomplete';
import { Prec, type Extension } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { ALL_ITEMS, commandOf } from './blocks';
import { pageLinkCompletions, type LinkablePage } from './page-link-completion';
import { htmlPaste } from './paste';
import { slashCompletions } from './slash-menu';
import './authoring.css';

export { AuthoringToolbar, type ToolbarHost } from './toolbar';
export type { LinkablePage } from './page-link-completion';

/** What the authoring extensions need from the page view. */
export interface AuthoringOptions {
  /** The space's pages, for `[[` / `@` links (read on each query). */
  pages: () => readonly LinkablePage[];
  /** Runs an item the page view handles (the image picker), chosen in the `/` menu. */
  action: (id: string, view: EditorView) => void;
}

/**
 * The editor extensions of authoring: the formatting shortcuts, the `/`
 * menu and page-link completion (one autocompletion, two sources), and
 * HTML paste. Passed to PageEditor through its `extensions` option.
 */
export function authoringExtensions(options: AuthoringOptions): Extension[] {
  const bindings = ALL_ITEMS.flatMap((item) => {
    const command = commandOf(item);
    if (!item.key || !command) return [];
    return [
      {
        key: item.key,
        run: (view: EditorView) => {
          if (!view.state.readOnly && view.state.facet(EditorView.editable)) {
            const spec = command(view.state);
            if (spec) view.dispatch({ ...spec, userEvent: 'input.format', scrollIntoView: true });
          }
          return true;
        },
      },
    ];
  });
  return [
    Prec.high(keymap.of(bindings)),
    autocompletion({
      // Only these menus: markdown's own HTML-tag completion would pop up in prose ("a <b"), and with
      // no interaction delay an Enter there would complete a tag instead of starting a line.
      override: [slashCompletions(options.action), pageLinkCompletions(options.pages)],
      icons: false,
      activateOnTyping: true,
      closeOnBlur: true,
      // The menus open on a deliberate `/`, `[[` or `@`: Enter right after the query picks, as in GitBook and Notion.
      interactionDelay: 0,
      tooltipClass: () => 'authoring-completion',
      optionClass: (completion) => (completion.type?.startsWith('folio-') ? 'authoring-option' : ''),
    }),
    htmlPaste(),
  ];
}
