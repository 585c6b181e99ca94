import { h } from '../ui/dom';
import { icon, type IconName } from '../ui/icons';

/**
 * A menu button (WAI-ARIA menu button pattern): the button opens a list of
 * menu items; ↑/↓/Home/End move, Enter/Space run, Escape or a click outside
 * closes and focus returns to the button.
 */

/** One menu entry. */
export interface MenuItem {
  label: string;
  icon: IconName;
  testid: string;
  run(): void;
  danger?: boolean;
}

/** The button; `items` is read each time the menu opens. */
export function menuButton(label: string, items: () => MenuItem[], testid: string): HTMLButtonElement {
  const button = h(
    'button',
    {
      type: 'button',
      class: 'ph-icon-button',
      title: label,
      'aria-label': label,
      'aria-haspopup': 'menu',
      'aria-expanded': 'false',
      'data-testid': testid,
    },
    icon('ellipsis'),
  );
  button.addEventListener('click', () => (button.getAttribute('aria-expanded') === 'true' ? undefined : open(false)));
  button.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      open(event.key === 'ArrowUp');
    }
  });
  const open = (fromEnd: boolean) => {
    const entries = items().map((item) =>
      h(
        'button',
        {
          type: 'button',
          role: 'menuitem',
          tabindex: -1,
          class: `ph-menu-item${item.danger ? ' danger' : ''}`,
          'data-testid': item.testid,
          onclick: () => {
            close(true);
            item.run();
          },
        },
        icon(item.icon),
        item.label,
      ),
    );
    const menu = h('div', { class: 'ph-menu', role: 'menu', 'aria-label': label }, ...entries);
    const close = (restoreFocus: boolean) => {
      menu.remove();
      document.removeEventListener('pointerdown', outside, true);
      button.setAttribute('aria-expanded', 'false');
      if (restoreFocus) button.focus();
    };
    const outside = (event: Event) => {
      if (!menu.contains(event.target as Node) && !button.contains(event.target as Node)) close(false);
    };
    menu.addEventListener('keydown', (event) => {
      const at = entries.indexOf(document.activeElement as HTMLButtonElement);
      const n = entries.length;
      const to: Record<string, number> = { ArrowDown: (at + 1) % n, ArrowUp: (at - 1 + n) % n, Home: 0, End: n - 1 };
      if (event.key in to) {
        event.preventDefault();
        entries[to[event.key]!]?.focus();
      } else if (event.key === 'Escape' || event.key === 'Tab') {
        if (event.key === 'Escape') event.preventDefault();
        close(event.key === 'Escape');
      }
    });
    document.addEventListener('pointerdown', outside, true);
    button.setAttribute('aria-expanded', 'true');
    button.insertAdjacentElement('afterend', menu);
    entries[fromEnd ? entries.length - 1 : 0]?.focus();
  };
  return button;
}
