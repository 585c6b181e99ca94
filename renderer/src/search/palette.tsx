import { useEffect, useRef, useState } from 'preact/hooks';
import { Dialog, openDialog } from '../ui/kit/dialog';
import { useEventListener } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { filterCommands, type PaletteCommand } from './commands';
import { highlight, queryTerms, snippet, type Segment } from './snippet';
import type { SearchHit, SearchResults } from './types';
import './palette.css';

/**
 * The Ctrl/Cmd+K palette: one text field that searches the space (page
 * titles and full text, with the matched words marked in a snippet of the
 * section) and runs commands ("> " lists commands only). It is the kit's
 * modal dialog (the rest of the app is inert meanwhile) following the WAI-ARIA
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
  initialQuery?: string | undefined;
}

type Item = { kind: 'hit'; hit: SearchHit; terms: string[] } | { kind: 'command'; command: PaletteCommand };

/** Wait after a keystroke before searching, so typing a word sends one query, not one per letter. */
const DEBOUNCE_MS = 120;
/** Commands listed under the search results when they match too. */
const COMMANDS_WITH_RESULTS = 4;

/** The open palette: focus it again, or close it (its workspace went away). */
let shown: { focus(query?: string): void; close(): void } | undefined;

/** Opens the palette (or focuses it when already open). */
export function showPalette(options: PaletteOptions): void {
  if (shown) return shown.focus(options.initialQuery);
  const returnFocus = document.activeElement;
  void openDialog<boolean>((close) => <Palette options={options} close={close} />).then((restoreFocus) => {
    shown = undefined;
    if (restoreFocus && returnFocus instanceof HTMLElement && returnFocus.isConnected) returnFocus.focus();
  });
}

/** Closes the palette if it is open (its workspace is closing). */
export function closePalette(): void {
  shown?.close();
}

/** What the list shows: the items, the text they answer, and the status line. */
interface Listing {
  items: Item[];
  query: string;
  /** The field's text the items were listed for. */
  text: string;
  status: string;
  offline: boolean;
}

function Palette({ options, close }: { options: PaletteOptions; close: (restoreFocus: boolean) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [listing, setListing] = useState<Listing>({ items: [], query: '', text: '\u0000', status: '', offline: false });
  const [active, setActive] = useState(-1);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const inflight = useRef<AbortController>();
  /** Counts queries, so an answer that arrives after a newer query started is dropped. */
  const generation = useRef(0);
  /** Enter was pressed before the list caught up with the text: choose the first item when it does. */
  const chooseWhenListed = useRef(false);

  const commandItems = (commands: PaletteCommand[]): Item[] =>
    commands.map((command) => ({ kind: 'command', command }));

  /** Lists what the current text asks for: commands at once, search results when they arrive. */
  const update = () => {
    clearTimeout(timer.current);
    inflight.current?.abort();
    const gen = ++generation.current;
    const text = input.current?.value ?? '';
    const commandsOnly = text.trimStart().startsWith('>');
    const query = commandsOnly ? text.trimStart().slice(1).trim() : text.trim();
    const commands = filterCommands(options.commands, query);
    if (commandsOnly || query === '') {
      setBusy(false);
      list_(
        commandItems(commands),
        query,
        text,
        false,
        commands.length === 0 ? `No command matches “${query}”` : query === '' && !commandsOnly ? 'Type to search' : '',
      );
      return;
    }
    const controller = (inflight.current = new AbortController());
    setBusy(true);
    setListing((old) => ({ ...old, status: 'Searching…' }));
    void options.search(query, controller.signal).then(
      (results) => {
        if (gen !== generation.current) return;
        setBusy(false);
        const terms = queryTerms(query);
        const hits: Item[] = results.hits.map((hit) => ({
          kind: 'hit',
          hit,
          terms: [...terms, ...(hit.matchedTerms ?? [])],
        }));
        const pages = new Set(results.hits.map((h) => h.pageId)).size;
        list_(
          [...hits, ...commandItems(commands.slice(0, COMMANDS_WITH_RESULTS))],
          query,
          text,
          results.source === 'offline',
          hits.length === 0
            ? `No page matches “${query}”${results.source === 'offline' ? ' in the copies on this device' : ''}`
            : `${pages} page${pages === 1 ? '' : 's'}, ${hits.length} section${hits.length === 1 ? '' : 's'}`,
        );
      },
      (err: unknown) => {
        if (gen !== generation.current || (err as Error).name === 'AbortError') return;
        setBusy(false);
        list_(commandItems(commands), query, text, false, `Search failed: ${(err as Error).message}`);
      },
    );
  };

  const list_ = (items: Item[], query: string, text: string, offline: boolean, status: string) => {
    setListing({ items, query, text, status, offline });
    setActive(items.length > 0 ? 0 : -1);
    if (chooseWhenListed.current) {
      chooseWhenListed.current = false;
      if (items.length > 0) choose(items[0]!);
    }
  };

  const choose = (item: Item | undefined) => {
    if (!item) return;
    if (item.kind === 'hit') {
      close(false); // the page's editor takes focus
      options.open(item.hit);
    } else {
      close(true);
      item.command.run();
    }
  };

  const focus = (query?: string) => {
    const field = input.current;
    if (!field) return;
    if (query !== undefined) field.value = query;
    field.focus();
    field.select();
    update();
  };

  useEffect(() => {
    shown = { focus, close: () => close(false) };
    focus(options.initialQuery);
    return () => {
      clearTimeout(timer.current);
      inflight.current?.abort();
      generation.current++;
    };
  }, []);

  // The active option stays in view as the arrows move it.
  useEffect(() => {
    list.current?.querySelector(`#palette-option-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listing]);

  // A press on the backdrop (outside the panel: the dialog element itself) closes, as in other palettes.
  useEventListener(document, 'mousedown', (event) => {
    if ((event.target as Element).matches?.('dialog[data-testid=palette]')) close(true);
  });

  const onKey = (event: KeyboardEvent) => {
    const count = listing.items.length;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (count === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((active + step + count) % count);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (event.isComposing) return;
      // Enter right after typing: the list is for older text; open the first result of this text once it arrives.
      if (input.current?.value !== listing.text) {
        chooseWhenListed.current = true;
        update();
      } else if (active >= 0) choose(listing.items[active]);
    }
  };

  // Keep keyboard focus inside: Tab cycles through the palette's own controls (the field, and the
  // close button where it shows), never out to the page behind or the browser's toolbar.
  const trapTab = (event: KeyboardEvent) => {
    if (event.key !== 'Tab') return;
    event.preventDefault();
    const panel = event.currentTarget as HTMLElement;
    const focusable = Array.from(panel.querySelectorAll<HTMLElement>('input, button')).filter(
      (el) => el.offsetParent !== null,
    );
    const at = focusable.indexOf(document.activeElement as HTMLElement);
    const next = (at + (event.shiftKey ? -1 : 1) + focusable.length) % focusable.length;
    (focusable[next] ?? input.current)?.focus();
  };

  const rows = groupedRows(listing, active, setActive, choose);
  return (
    <Dialog title="Search and commands" heading={false} onClose={() => close(true)} testid="palette" class="palette">
      <div class="palette-panel" onKeyDown={trapTab}>
        <div class="palette-field">
          <Icon name="search" size={18} class="palette-field-icon" />
          <input
            ref={input}
            type="text"
            class="palette-input"
            role="combobox"
            aria-label="Search pages or run a command"
            aria-autocomplete="list"
            aria-expanded="true"
            aria-controls="palette-listbox"
            aria-activedescendant={active >= 0 && listing.items[active] ? `palette-option-${active}` : undefined}
            autocomplete="off"
            spellcheck={false}
            placeholder="Search pages, or type > for commands"
            data-testid="palette-input"
            onInput={() => {
              clearTimeout(timer.current);
              timer.current = setTimeout(update, DEBOUNCE_MS);
            }}
            onKeyDown={onKey}
          />
          <span
            class="palette-source"
            data-testid="palette-source"
            hidden={!listing.offline}
            title="The server is unreachable: searching the copies saved on this device"
          >
            Offline copy
          </span>
          <kbd class="palette-esc" aria-hidden="true">
            Esc
          </kbd>
          <button
            type="button"
            class="palette-close"
            aria-label="Close"
            title="Close (Esc)"
            data-testid="palette-close"
            onClick={() => close(true)}
          >
            <Icon name="x" />
          </button>
        </div>
        <ul
          ref={list}
          id="palette-listbox"
          class="palette-list"
          role="listbox"
          aria-label="Results"
          aria-busy={busy ? 'true' : undefined}
          data-testid="palette-results"
          hidden={rows.length === 0}
          // Keep focus in the field while a row is clicked.
          onMouseDown={(event) => event.preventDefault()}
        >
          {rows}
        </ul>
        <footer class="palette-footer">
          <div class="palette-status" role="status" aria-live="polite" data-testid="palette-status">
            {listing.status}
          </div>
          <span class="palette-keys" aria-hidden="true">
            <kbd>↑</kbd>
            <kbd>↓</kbd> to move <kbd>↵</kbd> to open <kbd>&gt;</kbd> commands
          </span>
        </footer>
      </div>
    </Dialog>
  );
}

/** The rows: the open space's pages, each other space's pages (offline), then commands, each group titled. */
function groupedRows(
  listing: Listing,
  active: number,
  setActive: (index: number) => void,
  choose: (item: Item) => void,
): preact.JSX.Element[] {
  const terms = queryTerms(listing.query);
  const rows: preact.JSX.Element[] = [];
  let group: string | undefined;
  listing.items.forEach((item, index) => {
    const label = item.kind === 'command' ? 'Commands' : item.hit.spaceTitle ? `In ${item.hit.spaceTitle}` : 'Pages';
    if (label !== group) {
      group = label;
      rows.push(
        <li key={`group:${label}`} class="palette-group" role="presentation">
          {label}
        </li>,
      );
    }
    const option = {
      index,
      selected: index === active,
      hover: () => index !== active && setActive(index),
      choose: () => choose(item),
    };
    rows.push(
      item.kind === 'hit' ? (
        <HitRow
          key={`hit:${item.hit.spaceId}:${item.hit.pageId}#${item.hit.sectionId}`}
          hit={item.hit}
          terms={item.terms}
          {...option}
        />
      ) : (
        <CommandRow key={`command:${item.command.id}`} command={item.command} terms={terms} {...option} />
      ),
    );
  });
  return rows;
}

interface OptionProps {
  index: number;
  selected: boolean;
  hover: () => void;
  choose: () => void;
}

function Option(props: OptionProps & { attrs: Record<string, string>; children: preact.ComponentChildren }) {
  return (
    <li
      {...props.attrs}
      id={`palette-option-${props.index}`}
      class="palette-item"
      role="option"
      aria-selected={props.selected ? 'true' : 'false'}
      onMouseMove={props.hover}
      onClick={props.choose}
    >
      {props.children}
    </li>
  );
}

function HitRow(props: OptionProps & { hit: SearchHit; terms: string[] }) {
  const { hit, terms } = props;
  const excerpt = snippet(hit.body, terms);
  return (
    <Option
      {...props}
      attrs={{ 'data-testid': 'palette-hit', 'data-page-id': hit.pageId, 'data-section-id': hit.sectionId }}
    >
      <Icon name={hit.sectionId ? 'hash' : 'file-text'} class="palette-item-icon" />
      <span class="palette-item-text">
        <span class="palette-item-title">
          <span class="palette-page-title">
            <Marked segments={highlight(hit.pageTitle || 'Untitled', terms)} />
          </span>
          {hit.sectionTitle && (
            <span class="palette-section-title" data-testid="palette-section">
              <Marked segments={highlight(hit.sectionTitle, terms)} />
            </span>
          )}
        </span>
        {excerpt.length > 0 && (
          <span class="palette-snippet" data-testid="palette-snippet">
            <Marked segments={excerpt} />
          </span>
        )}
      </span>
    </Option>
  );
}

function CommandRow(props: OptionProps & { command: PaletteCommand; terms: string[] }) {
  const { command } = props;
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <Option {...props} attrs={{ 'data-testid': 'palette-command', 'data-command': command.id }}>
      <Icon name={command.icon} class="palette-item-icon" />
      <span class="palette-item-text">
        <span class="palette-item-title">
          <Marked segments={highlight(command.label, props.terms)} />
        </span>
      </span>
      {command.keys && (
        <span class="palette-shortcut">
          {command.keys.split('+').map((k, i) => (
            <kbd key={i}>{k === 'Mod' ? (mac ? '⌘' : 'Ctrl') : k}</kbd>
          ))}
        </span>
      )}
    </Option>
  );
}

/** Segments as text and <mark> elements. */
function Marked({ segments }: { segments: Segment[] }) {
  return <>{segments.map((s, i) => (s.mark ? <mark key={i}>{s.text}</mark> : s.text))}</>;
}
