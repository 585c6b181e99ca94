import type { EditorView } from '@codemirror/view';
import { h } from '../../ui/dom';
import { icon } from '../../ui/icons';
import { ALL_ITEMS, commandOf, keyLabel, type AuthoringItem } from './blocks';
import './authoring.css';

/**
 * The formatting toolbar above the editor: the inline formats and common
 * blocks as icon buttons, the rarer blocks in an "Insert" menu, and the
 * view toggles (Source, Reading view) at the end. It follows the ARIA
 * toolbar pattern: one Tab stop, arrow keys move between buttons. A button
 * runs its command on the editor's state and gives focus back to the editor.
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

/** The toolbar element and its state. */
export class AuthoringToolbar {
  readonly element: HTMLElement;
  private readonly buttons: HTMLButtonElement[] = [];
  private readonly sourceButton: HTMLButtonElement;
  private readonly readingButton: HTMLButtonElement;
  private readonly moreButton: HTMLButtonElement;
  private menu: HTMLElement | undefined;
  private source = false;

  constructor(private readonly host: ToolbarHost) {
    const groups = BUTTON_GROUPS.map((ids) =>
      h('div', { class: 'authoring-group', role: 'group' }, ...ids.map((id) => this.itemButton(byId(id)))),
    );
    this.moreButton = this.button({
      testid: 'tb-more',
      label: 'Insert a block',
      title: 'Insert a block (or type / in the page)',
      content: [icon('plus'), h('span', { class: 'authoring-label' }, 'Insert')],
      onclick: () => this.toggleMenu(),
    });
    this.moreButton.setAttribute('aria-haspopup', 'menu');
    this.moreButton.setAttribute('aria-expanded', 'false');
    this.sourceButton = this.button({
      testid: 'toggle-source',
      label: 'Source',
      title: 'Show the markdown source (Ctrl+Alt+S)',
      content: [icon('hash'), h('span', { class: 'authoring-label' }, 'Source')],
      onclick: () => this.setSource(!this.source),
    });
    this.sourceButton.setAttribute('aria-pressed', 'false');
    this.readingButton = this.button({
      testid: 'toggle-preview',
      label: 'Reading view',
      title: 'Show or hide the reading view (Ctrl+Alt+P)',
      content: [icon('book-open'), h('span', { class: 'authoring-label' }, 'Read')],
      onclick: () => host.toggleReading(),
    });
    this.readingButton.setAttribute('aria-pressed', 'false');
    this.element = h(
      'div',
      {
        class: 'authoring-toolbar',
        role: 'toolbar',
        'aria-label': 'Formatting',
        'data-testid': 'authoring-toolbar',
        onkeydown: (event: Event) => this.onKey(event as KeyboardEvent),
      },
      h('div', { class: 'authoring-tools' }, ...groups, h('div', { class: 'authoring-group' }, this.moreButton)),
      h('div', { class: 'authoring-modes' }, this.sourceButton, this.readingButton),
    );
    this.roveTo(this.buttons[0]!);
  }

  /** Whether the source toggle is on. */
  get sourceMode(): boolean {
    return this.source;
  }

  /** Turns the markdown source view on or off. */
  setSource(on: boolean): void {
    this.reflectSource(on);
    this.host.setSource(on);
  }

  /** Reflects a source mode switched elsewhere (the editor's own shortcut) on the button. */
  reflectSource(on: boolean): void {
    this.source = on;
    this.sourceButton.setAttribute('aria-pressed', String(on));
    this.sourceButton.title = on ? 'Back to the live preview (Ctrl+Alt+S)' : 'Show the markdown source (Ctrl+Alt+S)';
  }

  /** Reflects the reading view's state on its button. */
  setReading(on: boolean): void {
    this.readingButton.setAttribute('aria-pressed', String(on));
  }

  /** Enables or disables the formatting buttons (read-only pages). */
  setEnabled(enabled: boolean): void {
    for (const b of this.buttons) if (b !== this.sourceButton && b !== this.readingButton) b.disabled = !enabled;
  }

  /** Runs an item on the open editor. */
  run(item: AuthoringItem): void {
    const view = this.host.view();
    if (!view) return;
    const command = commandOf(item);
    if (!command) {
      this.host.action(item.id);
      return;
    }
    const spec = command(view.state);
    if (spec) view.dispatch({ ...spec, userEvent: 'input.format', scrollIntoView: true });
    view.focus();
  }

  /** Closes the Insert menu. */
  destroy(): void {
    this.closeMenu();
  }

  private itemButton(item: AuthoringItem): HTMLButtonElement {
    return this.button({
      testid: `tb-${item.id}`,
      label: item.label,
      title: itemTitle(item),
      content: [icon(item.icon)],
      onclick: () => this.run(item),
    });
  }

  private button(spec: {
    testid: string;
    label: string;
    title: string;
    content: Node[];
    onclick: () => void;
  }): HTMLButtonElement {
    const button = h(
      'button',
      {
        type: 'button',
        class: 'authoring-button',
        'aria-label': spec.label,
        title: spec.title,
        'data-testid': spec.testid,
        tabindex: '-1',
        // Keep the editor's selection: a mousedown on a button would otherwise move focus first.
        onmousedown: (event: Event) => event.preventDefault(),
        onclick: spec.onclick,
      },
      ...spec.content,
    ) as HTMLButtonElement;
    this.buttons.push(button);
    return button;
  }

  private roveTo(button: HTMLButtonElement): void {
    for (const b of this.buttons) b.tabIndex = b === button ? 0 : -1;
  }

  private onKey(event: KeyboardEvent): void {
    const current = this.buttons.indexOf(event.target as HTMLButtonElement);
    if (current < 0) return;
    let next = -1;
    if (event.key === 'ArrowRight') next = (current + 1) % this.buttons.length;
    else if (event.key === 'ArrowLeft') next = (current - 1 + this.buttons.length) % this.buttons.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = this.buttons.length - 1;
    if (next < 0) return;
    event.preventDefault();
    this.roveTo(this.buttons[next]!);
    this.buttons[next]!.focus();
  }

  private toggleMenu(): void {
    if (this.menu) this.closeMenu();
    else this.openMenu();
  }

  private openMenu(): void {
    const items = MENU_ITEMS.map((id) => {
      const item = byId(id);
      return h(
        'button',
        {
          type: 'button',
          role: 'menuitem',
          class: 'authoring-menu-item',
          'data-testid': `tb-${item.id}`,
          title: itemTitle(item),
          tabindex: '-1',
          onmousedown: (event: Event) => event.preventDefault(),
          onclick: () => {
            this.closeMenu();
            this.run(item);
          },
        },
        icon(item.icon),
        h('span', { class: 'authoring-menu-text' }, h('strong', {}, item.label), h('small', {}, item.detail)),
      ) as HTMLButtonElement;
    });
    const menu = h(
      'div',
      {
        class: 'authoring-menu',
        role: 'menu',
        'aria-label': 'Insert a block',
        'data-testid': 'tb-menu',
        onkeydown: (e: Event) => {
          const event = e as KeyboardEvent;
          const i = items.indexOf(document.activeElement as HTMLButtonElement);
          if (event.key === 'Escape') {
            event.preventDefault();
            this.closeMenu();
            this.moreButton.focus();
          } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            const next = (i + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
            items[next]!.focus();
          }
        },
      },
      ...items,
    );
    // Fixed, placed under the button: the toolbar scrolls sideways and would clip it.
    const rect = this.moreButton.getBoundingClientRect();
    menu.style.top = `${rect.bottom + 4}px`;
    menu.style.left = `${Math.max(8, Math.min(rect.left, window.innerWidth - 288))}px`;
    document.body.append(menu);
    this.menu = menu;
    this.moreButton.setAttribute('aria-expanded', 'true');
    items[0]!.focus();
    setTimeout(() => document.addEventListener('mousedown', this.outside, true));
  }

  private readonly outside = (event: MouseEvent) => {
    if (this.menu?.contains(event.target as Node) || this.moreButton.contains(event.target as Node)) return;
    this.closeMenu();
  };

  private closeMenu(): void {
    document.removeEventListener('mousedown', this.outside, true);
    this.menu?.remove();
    this.menu = undefined;
    this.moreButton.setAttribute('aria-expanded', 'false');
  }
}
