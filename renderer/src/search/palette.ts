import { h, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { filterCommands, type PaletteCommand } from './commands';
import { highlight, queryTerms, snippet, type Segment } from './snippet';
import type { SearchHit, SearchResults } from './types';
import './palette.css';

/**
 * The Ctrl/Cmd+K palette: one text field that searches the space (page
 * titles and full text, with the matched words marked in a snippet of the
 * section) and runs commands ("> " lists commands only). It is a modal
 * <dialog> (the rest of the app is inert meanwhile) following the WAI-ARIA
 * combobox pattern: focus stays in the field, ↑/↓ move the active option
 * (aria-activedescendant), Enter runs it, Esc closes.
 */

/** What the palette searches and runs. */
export interface PaletteOptions {
  /** Searches the space; `signal` aborts a query the user typed past. */
  search(query: string, signal: AbortSignal): Promise<SearchResults>;
  commands: readonly PaletteCommand[];
  /** Opens a found section (after the palette closed). */
  open(hit: SearchHit): void;
  /** Text to start with (e.g. ">" for commands only). */
  initialQuery?: string;
}

type Item = { kind: 'hit'; hit: SearchHit; terms: string[] } | { kind: 'command'; command: PaletteCommand };

/** Wait after a keystroke before searching, so typing a word sends one query, not one per letter. */
const DEBOUNCE_MS = 120;
/** Commands listed under the search results when they match too. */
const COMMANDS_WITH_RESULTS = 4;

let openPalette: Palette | undefined;

/** Opens the palette (or focuses it when already open). */
export function showPalette(options: PaletteOptions): void {
  if (openPalette) {
    openPalette.focus(options.initialQuery);
    return;
  }
  openPalette = new Palette(options);
}

class Palette {
  private readonly input = h('input', {
    type: 'text',
    class: 'palette-input',
    role: 'combobox',
    'aria-label': 'Search pages or run a command',
    'aria-autocomplete': 'list',
    'aria-expanded': 'true',
    'aria-controls': 'palette-listbox',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'Search pages, or type > for commands',
    'data-testid': 'palette-input',
  });
  private readonly list = h('ul', {
    id: 'palette-listbox',
    class: 'palette-list',
    role: 'listbox',
    'aria-label': 'Results',
    'data-testid': 'palette-results',
  });
  private readonly status = h('div', {
    class: 'palette-status',
    role: 'status',
    'aria-live': 'polite',
    'data-testid': 'palette-status',
  });
  private readonly source = h('span', { class: 'palette-source', 'data-testid': 'palette-source', hidden: true });
  private readonly dialog: HTMLDialogElement;
  private readonly returnFocus: Element | null;
  private items: Item[] = [];
  /** The text the list shows results for. */
  private listed = '';
  /** Enter was pressed before the list caught up with the text: choose the first item when it does. */
  private chooseWhenListed = false;
  private active = -1;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inflight: AbortController | undefined;
  /** Counts queries, so an answer that arrives after a newer query started is dropped. */
  private generation = 0;

  constructor(private readonly options: PaletteOptions) {
    this.returnFocus = document.activeElement;
    this.dialog = h(
      'dialog',
      {
        class: 'palette',
        role: 'dialog',
        'aria-modal': 'true',
        'aria-label': 'Search and commands',
        'data-testid': 'palette',
      },
      h(
        'div',
        { class: 'palette-field' },
        icon('search', { size: 18, class: 'palette-field-icon' }),
        this.input,
        this.source,
        h('kbd', { class: 'palette-esc', 'aria-hidden': 'true' }, 'Esc'),
        h(
          'button',
          {
            type: 'button',
            class: 'palette-close',
            'aria-label': 'Close',
            title: 'Close (Esc)',
            'data-testid': 'palette-close',
            onclick: () => this.dismiss(),
          },
          icon('x'),
        ),
      ),
      this.list,
      h(
        'footer',
        { class: 'palette-footer' },
        this.status,
        h(
          'span',
          { class: 'palette-keys', 'aria-hidden': 'true' },
          h('kbd', {}, '↑'),
          h('kbd', {}, '↓'),
          ' to move ',
          h('kbd', {}, '↵'),
          ' to open ',
          h('kbd', {}, '>'),
          ' commands',
        ),
      ),
    );
    this.input.addEventListener('input', () => this.schedule());
    this.input.addEventListener('keydown', (event) => this.onKey(event));
    // Keep keyboard focus inside: Tab cycles through the palette's own controls (the field, and the
    // close button where it shows), never out to the page behind or the browser's toolbar.
    this.dialog.addEventListener('keydown', (event) => {
      if (event.key !== 'Tab') return;
      event.preventDefault();
      const focusable = Array.from(this.dialog.querySelectorAll<HTMLElement>('input, button')).filter(
        (el) => el.offsetParent !== null,
      );
      const at = focusable.indexOf(document.activeElement as HTMLElement);
      const next = (at + (event.shiftKey ? -1 : 1) + focusable.length) % focusable.length;
      (focusable[next] ?? this.input).focus();
    });
    this.dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      this.dismiss();
    });
    // A click on the backdrop (outside the panel) closes, as in other palettes.
    this.dialog.addEventListener('mousedown', (event) => {
      if (event.target === this.dialog) this.dismiss();
    });
    this.list.addEventListener('mousedown', (event) => event.preventDefault()); // keep focus in the field
    document.body.append(this.dialog);
    this.dialog.showModal();
    this.focus(options.initialQuery);
  }

  /** Focuses the field, optionally replacing its text. */
  focus(query?: string): void {
    if (query !== undefined) this.input.value = query;
    this.input.focus();
    this.input.select();
    this.update();
  }

  private close(): void {
    this.inflight?.abort();
    clearTimeout(this.timer);
    this.dialog.close();
    this.dialog.remove();
    openPalette = undefined;
  }

  /** Closes and gives focus back to what had it (nothing else takes it). */
  private dismiss(): void {
    this.close();
    if (this.returnFocus instanceof HTMLElement && this.returnFocus.isConnected) this.returnFocus.focus();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.update(), DEBOUNCE_MS);
  }

  /** Lists what the current text asks for: commands at once, search results when they arrive. */
  private update(): void {
    clearTimeout(this.timer);
    this.inflight?.abort();
    const generation = ++this.generation;
    const text = this.input.value;
    const commandsOnly = text.trimStart().startsWith('>');
    const query = commandsOnly ? text.trimStart().slice(1).trim() : text.trim();
    const commands = filterCommands(this.options.commands, query);
    if (commandsOnly || query === '') {
      this.source.hidden = true;
      this.show(
        commands.map((command) => ({ kind: 'command', command })),
        query,
      );
      this.setStatus(
        commands.length === 0 ? `No command matches “${query}”` : query === '' && !commandsOnly ? 'Type to search' : '',
      );
      return;
    }
    const controller = (this.inflight = new AbortController());
    this.setStatus('Searching…');
    this.list.setAttribute('aria-busy', 'true');
    void this.options.search(query, controller.signal).then(
      (results) => {
        if (generation !== this.generation) return;
        this.list.removeAttribute('aria-busy');
        const terms = queryTerms(query);
        const hits: Item[] = results.hits.map((hit) => ({
          kind: 'hit',
          hit,
          terms: [...terms, ...(hit.matchedTerms ?? [])],
        }));
        const extra: Item[] = commands.slice(0, COMMANDS_WITH_RESULTS).map((command) => ({ kind: 'command', command }));
        this.source.hidden = results.source !== 'offline';
        this.source.textContent = 'Offline copy';
        this.source.title = 'The server is unreachable: searching the copies saved on this device';
        this.show([...hits, ...extra], query);
        const pages = new Set(results.hits.map((h) => h.pageId)).size;
        this.setStatus(
          hits.length === 0
            ? `No page matches “${query}”${results.source === 'offline' ? ' in the copies on this device' : ''}`
            : `${pages} page${pages === 1 ? '' : 's'}, ${hits.length} section${hits.length === 1 ? '' : 's'}`,
        );
      },
      (err: unknown) => {
        if (generation !== this.generation || (err as Error).name === 'AbortError') return;
        this.list.removeAttribute('aria-busy');
        this.show(
          commands.map((command) => ({ kind: 'command', command })),
          query,
        );
        this.setStatus(`Search failed: ${(err as Error).message}`);
      },
    );
  }

  private setStatus(text: string): void {
    this.status.textContent = text;
  }

  private show(items: Item[], query: string): void {
    this.items = items;
    this.listed = this.input.value;
    const terms = queryTerms(query);
    const rows: HTMLElement[] = [];
    let group: string | undefined;
    items.forEach((item, index) => {
      // Groups: the open space's pages, each other space's pages (offline), then commands.
      const label = item.kind === 'command' ? 'Commands' : item.hit.spaceTitle ? `In ${item.hit.spaceTitle}` : 'Pages';
      if (label !== group) {
        group = label;
        rows.push(h('li', { class: 'palette-group', role: 'presentation' }, label));
      }
      rows.push(
        item.kind === 'hit' ? this.hitRow(item.hit, item.terms, index) : this.commandRow(item.command, terms, index),
      );
    });
    replace(this.list, ...rows);
    this.list.hidden = rows.length === 0;
    this.setActive(items.length > 0 ? 0 : -1);
    if (this.chooseWhenListed) {
      this.chooseWhenListed = false;
      if (items.length > 0) this.choose(0);
    }
  }

  private hitRow(hit: SearchHit, terms: string[], index: number): HTMLElement {
    const excerpt = snippet(hit.body, terms);
    return this.option(
      index,
      {
        'data-testid': 'palette-hit',
        'data-page-id': hit.pageId,
        'data-section-id': hit.sectionId,
      },
      icon(hit.sectionId ? 'hash' : 'file-text', { class: 'palette-item-icon' }),
      h(
        'span',
        { class: 'palette-item-text' },
        h(
          'span',
          { class: 'palette-item-title' },
          h('span', { class: 'palette-page-title' }, ...marked(highlight(hit.pageTitle || 'Untitled', terms))),
          hit.sectionTitle &&
            h(
              'span',
              { class: 'palette-section-title', 'data-testid': 'palette-section' },
              ...marked(highlight(hit.sectionTitle, terms)),
            ),
        ),
        excerpt.length > 0 &&
          h('span', { class: 'palette-snippet', 'data-testid': 'palette-snippet' }, ...marked(excerpt)),
      ),
    );
  }

  private commandRow(command: PaletteCommand, terms: string[], index: number): HTMLElement {
    const mac = /Mac|iPhone|iPad/.test(navigator.platform);
    return this.option(
      index,
      { 'data-testid': 'palette-command', 'data-command': command.id },
      icon(command.icon, { class: 'palette-item-icon' }),
      h(
        'span',
        { class: 'palette-item-text' },
        h('span', { class: 'palette-item-title' }, ...marked(highlight(command.label, terms))),
      ),
      command.keys &&
        h(
          'span',
          { class: 'palette-shortcut' },
          ...command.keys.split('+').map((k) => h('kbd', {}, k === 'Mod' ? (mac ? '⌘' : 'Ctrl') : k)),
        ),
    );
  }

  private option(
    index: number,
    attrs: Record<string, string>,
    ...children: (Node | false | '' | undefined)[]
  ): HTMLElement {
    const row = h(
      'li',
      { ...attrs, id: `palette-option-${index}`, class: 'palette-item', role: 'option', 'aria-selected': 'false' },
      ...children,
    );
    row.addEventListener('mousemove', () => this.active !== index && this.setActive(index));
    row.addEventListener('click', () => this.choose(index));
    return row;
  }

  private setActive(index: number): void {
    const rows = this.list.querySelectorAll<HTMLElement>('[role=option]');
    rows[this.active]?.setAttribute('aria-selected', 'false');
    this.active = index;
    const row = rows[index];
    if (!row) {
      this.input.removeAttribute('aria-activedescendant');
      return;
    }
    row.setAttribute('aria-selected', 'true');
    this.input.setAttribute('aria-activedescendant', row.id);
    row.scrollIntoView({ block: 'nearest' });
  }

  private onKey(event: KeyboardEvent): void {
    const count = this.items.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (count === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      this.setActive((this.active + step + count) % count);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (event.isComposing) return;
      // Enter right after typing: the list is for older text; open the first result of this text once it arrives.
      if (this.input.value !== this.listed) {
        this.chooseWhenListed = true;
        this.update();
      } else if (this.active >= 0) this.choose(this.active);
    }
  }

  private choose(index: number): void {
    const item = this.items[index];
    if (!item) return;
    if (item.kind === 'hit') {
      this.close(); // the page's editor takes focus
      this.options.open(item.hit);
    } else {
      this.dismiss();
      item.command.run();
    }
  }
}

/** Segments as text nodes and <mark> elements. */
function marked(segments: Segment[]): Node[] {
  return segments.map((s) => (s.mark ? h('mark', {}, s.text) : document.createTextNode(s.text)));
}
