import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { IconName } from '../icons';
import { Icon } from './icon';

/** One entry of a menu. */
export interface MenuItem {
  label: string;
  icon: IconName;
  testid: string;
  run(): void;
  danger?: boolean;
}

/**
 * A menu button (WAI-ARIA menu button pattern): the button opens a list of menu items under it;
 * ↑/↓/Home/End move, Enter/Space run, Escape or a click outside closes and focus returns to the
 * button. `items` is read whenever the menu renders while open (it may depend on what is open right
 * now, and an item that becomes available while the menu is open — the caller's permissions just
 * loaded — appears in it).
 */
export function MenuButton(props: {
  label: string;
  items: () => MenuItem[];
  testid: string;
  icon?: IconName;
  /** The button's class (the menu is `.menu` under it, in a `.menu-anchor`). */
  class?: string;
  children?: ComponentChildren;
}) {
  const [open, setOpen] = useState<{ fromEnd: boolean }>();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const show = (fromEnd: boolean) => setOpen({ fromEnd });
  const close = (restoreFocus: boolean) => {
    setOpen(undefined);
    if (restoreFocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const entries = menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]');
    entries?.[open.fromEnd ? entries.length - 1 : 0]?.focus();
    // A press anywhere else closes the menu (captured, so it also works over the editor).
    const outside = (event: Event) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(undefined);
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [open]);

  const onMenuKey = (event: KeyboardEvent) => {
    const entries = Array.from(menu.current?.querySelectorAll<HTMLElement>('[role=menuitem]') ?? []);
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const n = entries.length;
    const to: Record<string, number> = { ArrowDown: (at + 1) % n, ArrowUp: (at - 1 + n) % n, Home: 0, End: n - 1 };
    if (event.key in to) {
      event.preventDefault();
      entries[to[event.key]!]?.focus();
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      if (event.key === 'Escape') event.preventDefault();
      close(event.key === 'Escape');
    }
  };

  return (
    <span class="menu-anchor">
      <button
        ref={button}
        type="button"
        class={props.class ?? 'icon-button'}
        title={props.label}
        aria-label={props.label}
        aria-haspopup="menu"
        aria-expanded={open ? 'true' : 'false'}
        data-testid={props.testid}
        onClick={() => (open ? undefined : show(false))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            show(event.key === 'ArrowUp');
          }
        }}
      >
        {props.children ?? <Icon name={props.icon ?? 'ellipsis'} />}
      </button>
      {open && (
        <div ref={menu} class="menu" role="menu" aria-label={props.label} onKeyDown={onMenuKey}>
          {props.items().map((item) => (
            <button
              key={item.testid}
              type="button"
              role="menuitem"
              tabIndex={-1}
              class={`menu-item${item.danger ? ' danger' : ''}`}
              data-testid={item.testid}
              onClick={() => {
                close(true);
                item.run();
              }}
            >
              <Icon name={item.icon} />
              {item.label}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
