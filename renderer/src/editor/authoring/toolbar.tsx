import type { EditorView } from '@codemirror/view';
import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from '../../ui/kit/icon';
import { ALL_ITEMS, commandOf, keyLabel, type AuthoringItem } from './blocks';
import './authoring.css';

/**
 * The formatting toolbar above the editor: the inline formats and common blocks as icon buttons,
 * the rarer blocks in an "Insert" menu, and the view toggles (Source, Reading view) at the end. It
 * follows the ARIA toolbar pattern: one Tab stop, arrow keys move between buttons. A button runs
 * its command on the editor's state and gives focus back to the editor.
 */

/** Items shown as buttons, with separators between groups. */
const BUTTON_GROUPS: readonly (readonly string[])[] = [
  ['bold', 'italic', 'strike', 'code', 'link'],
  ['h1', 'h2', 'h3'],
  ['bullet', 'numbered', 'task', 'quote'],
  ['codeblock', 'table', 'hint', 'image'],
];

/** Items in the "Insert" menu. */
const MENU_ITEMS: readonly string[] = [
  'tabs',
  'expandable',
  'embed',
  'content-ref',
  'file',
  'cards',
  'divider',
  'hint-success',
  'hint-warning',
  'hint-danger',
  'api-operation',
];

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** What the toolbar needs from the page view. */
export interface ToolbarHost {
  /** The editor, when a page is open. */
  view(): EditorView | undefined;
  /** Runs an item the page view handles (the image picker). */
  action(id: string): void;
  /** Shows raw markdown (true) or the live preview (false). */
  setSource(on: boolean): void;
  /** Shows or hides the rendered reading view. */
  toggleReading(): void;
}

function byId(id: string): AuthoringItem {
  const item = ALL_ITEMS.find((i) => i.id === id);
  if (!item) throw new Error(`no authoring item ${id}`);
  return item;
}

/** "Bold (Ctrl+B)". */
export function itemTitle(item: AuthoringItem): string {
  return item.key ? `${item.label} (${keyLabel(item.key, isMac)})` : item.label;
}

/** Runs an item on the open editor (or asks the page view to, for items that are not edits). */
function run(host: ToolbarHost, item: AuthoringItem): void {
  const view = host.view();
  if (!view) return;
  const command = commandOf(item);
  if (!command) {
    host.action(item.id);
    return;
  }
  const spec = command(view.state);
  if (spec) view.dispatch({ ...spec, userEvent: 'input.format', scrollIntoView: true });
  view.focus();
}

/** A mousedown on a button would move focus first and lose the editor's selection. */
const keepSelection = (event: MouseEvent) => event.preventDefault();

export function AuthoringToolbar(props: {
  host: ToolbarHost;
  /** Source mode (raw markdown) is on. */
  source: boolean;
  /** The reading view is shown. */
  reading: boolean;
  /** Formatting buttons work (false on read-only pages; the view toggles always work). */
  enabled: boolean;
  hidden?: boolean;
}) {
  const { host } = props;
  const root = useRef<HTMLDivElement>(null);
  const more = useRef<HTMLButtonElement>(null);
  const [menu, setMenu] = useState<{ top: number; left: number }>();
  /** The one button of the toolbar in the Tab order (roving tabindex), by test id. */
  const [stop, setStop] = useState(`tb-${BUTTON_GROUPS[0]![0]}`);

  const buttons = () => Array.from(root.current?.querySelectorAll<HTMLButtonElement>('.authoring-button') ?? []);
  const onKey = (event: KeyboardEvent) => {
    const all = buttons();
    const current = all.indexOf(event.target as HTMLButtonElement);
    if (current < 0) return;
    const n = all.length;
    const to: Record<string, number> = {
      ArrowRight: (current + 1) % n,
      ArrowLeft: (current - 1 + n) % n,
      Home: 0,
      End: n - 1,
    };
    if (!(event.key in to)) return;
    event.preventDefault();
    const next = all[to[event.key]!]!;
    setStop(next.dataset.testid!);
    next.focus();
  };

  const toggleMenu = () => {
    if (menu) return setMenu(undefined);
    // Fixed, placed under the button: the toolbar scrolls sideways and would clip it.
    const rect = more.current!.getBoundingClientRect();
    setMenu({ top: rect.bottom + 4, left: Math.max(8, Math.min(rect.left, window.innerWidth - 288)) });
  };

  const button = (spec: {
    testid: string;
    label: string;
    title: string;
    onClick: () => void;
    children: preact.ComponentChildren;
    disabled?: boolean;
    pressed?: boolean;
    ref?: preact.Ref<HTMLButtonElement>;
    menu?: boolean;
  }) => (
    <button
      ref={spec.ref}
      type="button"
      class="authoring-button"
      aria-label={spec.label}
      title={spec.title}
      data-testid={spec.testid}
      tabIndex={stop === spec.testid ? 0 : -1}
      disabled={spec.disabled}
      aria-pressed={spec.pressed}
      aria-haspopup={spec.menu ? 'menu' : undefined}
      aria-expanded={spec.menu ? menu !== undefined : undefined}
      onMouseDown={keepSelection}
      onFocus={() => setStop(spec.testid)}
      onClick={spec.onClick}
    >
      {spec.children}
    </button>
  );

  return (
    <div
      ref={root}
      class="authoring-toolbar"
      role="toolbar"
      aria-label="Formatting"
      data-testid="authoring-toolbar"
      hidden={props.hidden}
      onKeyDown={onKey}
    >
      <div class="authoring-tools">
        {BUTTON_GROUPS.map((ids) => (
          <div key={ids[0]} class="authoring-group" role="group">
            {ids.map((id) => {
              const item = byId(id);
              return (
                <Fragment key={id}>
                  {button({
                    testid: `tb-${item.id}`,
                    label: item.label,
                    title: itemTitle(item),
                    disabled: !props.enabled,
                    onClick: () => run(host, item),
                    children: <Icon name={item.icon} />,
                  })}
                </Fragment>
              );
            })}
          </div>
        ))}
        <div class="authoring-group">
          {button({
            ref: more,
            testid: 'tb-more',
            label: 'Insert a block',
            title: 'Insert a block (or type / in the page)',
            disabled: !props.enabled,
            menu: true,
            onClick: toggleMenu,
            children: (
              <>
                <Icon name="plus" />
                <span class="authoring-label">Insert</span>
              </>
            ),
          })}
        </div>
      </div>
      <div class="authoring-modes">
        {button({
          testid: 'toggle-source',
          label: 'Source',
          title: props.source ? 'Back to the live preview (Ctrl+Alt+S)' : 'Show the markdown source (Ctrl+Alt+S)',
          pressed: props.source,
          onClick: () => host.setSource(!props.source),
          children: (
            <>
              <Icon name="hash" />
              <span class="authoring-label">Source</span>
            </>
          ),
        })}
        {button({
          testid: 'toggle-preview',
          label: 'Reading view',
          title: 'Show or hide the reading view (Ctrl+Alt+P)',
          pressed: props.reading,
          onClick: () => host.toggleReading(),
          children: (
            <>
              <Icon name="book-open" />
              <span class="authoring-label">Read</span>
            </>
          ),
        })}
      </div>
      {menu && (
        <InsertMenu
          at={menu}
          anchor={more}
          onRun={(item) => {
            setMenu(undefined);
            run(host, item);
          }}
          onClose={(refocus) => {
            setMenu(undefined);
            if (refocus) more.current?.focus();
          }}
        />
      )}
    </div>
  );
}

/** The "Insert" menu: arrow keys move, Escape closes (focus back on its button), a press outside closes. */
function InsertMenu(props: {
  at: { top: number; left: number };
  anchor: { current: HTMLButtonElement | null };
  onRun: (item: AuthoringItem) => void;
  onClose: (refocus: boolean) => void;
}) {
  const menu = useRef<HTMLDivElement>(null);
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  useEffect(() => {
    menu.current?.querySelector<HTMLElement>('[role=menuitem]')?.focus();
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (menu.current?.contains(target) || props.anchor.current?.contains(target)) return;
      onClose.current(false);
    };
    document.addEventListener('mousedown', outside, true);
    return () => document.removeEventListener('mousedown', outside, true);
  }, []);
  const onKey = (event: KeyboardEvent) => {
    const items = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? []);
    const i = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      props.onClose(true);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      event.stopPropagation();
      items[(i + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length]?.focus();
    }
  };
  return (
    <div
      ref={menu}
      class="authoring-menu"
      role="menu"
      aria-label="Insert a block"
      data-testid="tb-menu"
      style={{ top: `${props.at.top}px`, left: `${props.at.left}px` }}
      onKeyDown={onKey}
    >
      {MENU_ITEMS.map((id) => {
        const item = byId(id);
        return (
          <button
            key={id}
            type="button"
            role="menuitem"
            class="authoring-menu-item"
            data-testid={`tb-${item.id}`}
            title={itemTitle(item)}
            tabIndex={-1}
            onMouseDown={keepSelection}
            onClick={() => props.onRun(item)}
          >
            <Icon name={item.icon} />
            <span class="authoring-menu-text">
              <strong>{item.label}</strong>
              <small>{item.detail}</small>
            </span>
          </button>
        );
      })}
    </div>
  );
}
