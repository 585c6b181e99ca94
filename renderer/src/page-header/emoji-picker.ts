import { h } from '../ui/dom';
import { icon } from '../ui/icons';

/**
 * The page icon picker: a small curated grid of emoji that documentation
 * pages commonly use, and "Remove". A popover under its button: arrow keys
 * move through the grid, Enter/Space picks, Escape or a click outside closes
 * and gives focus back to the button.
 */

/** The emoji offered (GitBook stores the page icon as the emoji itself). */
export const PAGE_EMOJI: readonly string[] = [
  '📄',
  '📘',
  '📗',
  '📕',
  '📙',
  '📚',
  '📝',
  '📌',
  '📎',
  '🔖',
  '🏷️',
  '🗂️',
  '📁',
  '📦',
  '🧰',
  '🛠️',
  '⚙️',
  '🔧',
  '🔑',
  '🔒',
  '🛡️',
  '🚀',
  '✨',
  '⭐',
  '💡',
  '❓',
  '❗',
  '⚠️',
  '✅',
  '❌',
  '🐛',
  '🧪',
  '📊',
  '📈',
  '🗺️',
  '🧭',
  '🌐',
  '💬',
  '👋',
  '👥',
  '🏠',
  '🎯',
  '🧩',
  '🔌',
  '💻',
  '🖥️',
  '📱',
  '☁️',
];

const COLUMNS = 8;

/** Opens the picker under `anchor`; `pick` gets the chosen emoji, or null for "Remove". */
export function openEmojiPicker(
  anchor: HTMLElement,
  current: string | undefined,
  pick: (emoji: string | null) => void,
): void {
  document.querySelector('.emoji-picker')?.remove();
  const close = (restoreFocus: boolean) => {
    popover.remove();
    document.removeEventListener('pointerdown', outside, true);
    anchor.setAttribute('aria-expanded', 'false');
    if (restoreFocus) anchor.focus();
  };
  const choose = (emoji: string | null) => {
    close(true);
    pick(emoji);
  };
  const cells = PAGE_EMOJI.map((emoji) =>
    h(
      'button',
      {
        type: 'button',
        class: `emoji-cell${emoji === current ? ' current' : ''}`,
        'aria-label': `Use ${emoji}`,
        'aria-pressed': String(emoji === current),
        'data-testid': 'emoji-option',
        'data-emoji': emoji,
        tabindex: -1,
        onclick: () => choose(emoji),
      },
      emoji,
    ),
  );
  const grid = h('div', { class: 'emoji-grid', role: 'group', 'aria-label': 'Emoji' }, ...cells);
  const popover = h(
    'div',
    { class: 'emoji-picker', role: 'dialog', 'aria-label': 'Page icon', 'data-testid': 'emoji-picker' },
    h(
      'div',
      { class: 'emoji-picker-head' },
      h('span', {}, 'Page icon'),
      h(
        'button',
        {
          type: 'button',
          class: 'emoji-remove',
          'data-testid': 'emoji-remove',
          disabled: current === undefined,
          onclick: () => choose(null),
        },
        icon('trash', { size: 14 }),
        'Remove',
      ),
    ),
    grid,
  );
  grid.addEventListener('keydown', (event) => {
    const at = cells.indexOf(event.target as HTMLButtonElement);
    if (at < 0) return;
    const step: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    const next =
      event.key === 'Home' ? 0 : event.key === 'End' ? cells.length - 1 : step[event.key] ? at + step[event.key]! : -1;
    if (next < 0 || next >= cells.length) return;
    event.preventDefault();
    focusCell(next);
  });
  popover.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    }
  });
  const outside = (event: Event) => {
    if (!popover.contains(event.target as Node) && event.target !== anchor && !anchor.contains(event.target as Node))
      close(false);
  };
  const focusCell = (i: number) => {
    cells.forEach((c, j) => (c.tabIndex = j === i ? 0 : -1));
    cells[i]?.focus();
  };
  document.addEventListener('pointerdown', outside, true);
  anchor.setAttribute('aria-expanded', 'true');
  anchor.insertAdjacentElement('afterend', popover);
  focusCell(Math.max(0, current ? PAGE_EMOJI.indexOf(current) : 0));
}
