import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from '../ui/kit/icon';

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

/** The popover; `pick` gets the chosen emoji (null: "Remove"), `close` ends it (`restoreFocus`: back to `anchor`). */
export function EmojiPicker(props: {
  current: string | undefined;
  anchor: { current: HTMLElement | null };
  pick: (emoji: string | null) => void;
  close: (restoreFocus: boolean) => void;
}) {
  const { current } = props;
  const [focused, setFocused] = useState(() => Math.max(0, current ? PAGE_EMOJI.indexOf(current) : 0));
  const popover = useRef<HTMLDivElement>(null);
  const close = useRef(props.close);
  close.current = props.close;

  useEffect(() => {
    popover.current?.querySelectorAll<HTMLElement>('.emoji-cell')[focused]?.focus();
  }, [focused]);
  useEffect(() => {
    const outside = (event: Event) => {
      const target = event.target as Node;
      if (!popover.current?.contains(target) && !props.anchor.current?.contains(target)) close.current(false);
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, []);

  const choose = (emoji: string | null) => {
    props.close(true);
    props.pick(emoji);
  };
  const onGridKey = (event: KeyboardEvent) => {
    const step: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? PAGE_EMOJI.length - 1
          : step[event.key]
            ? focused + step[event.key]!
            : -1;
    if (next < 0 || next >= PAGE_EMOJI.length) return;
    event.preventDefault();
    setFocused(next);
  };
  return (
    <div
      ref={popover}
      class="emoji-picker"
      role="dialog"
      aria-label="Page icon"
      data-testid="emoji-picker"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        props.close(true);
      }}
    >
      <div class="emoji-picker-head">
        <span>Page icon</span>
        <button
          type="button"
          class="emoji-remove"
          data-testid="emoji-remove"
          disabled={current === undefined}
          onClick={() => choose(null)}
        >
          <Icon name="trash" size={14} />
          Remove
        </button>
      </div>
      <div class="emoji-grid" role="group" aria-label="Emoji" onKeyDown={onGridKey}>
        {PAGE_EMOJI.map((emoji, i) => (
          <button
            key={emoji}
            type="button"
            class={`emoji-cell${emoji === current ? ' current' : ''}`}
            aria-label={`Use ${emoji}`}
            aria-pressed={emoji === current}
            data-testid="emoji-option"
            data-emoji={emoji}
            tabIndex={i === focused ? 0 : -1}
            onClick={() => choose(emoji)}
          >
            {emoji}
          </button>
        ))}
      </div>
    </div>
  );
}
