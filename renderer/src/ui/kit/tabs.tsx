import type { ComponentChildren } from 'preact';
import type { Route } from '../../routes';
import { Link } from './link';

/** One tab: its id, its label, and (for tabs that are screens) the route it opens. */
export interface TabItem<Id extends string = string> {
  id: Id;
  label: ComponentChildren;
  route?: Route;
  testid?: string;
}

/**
 * The app's one tabs component. Tabs that switch a panel in place are an ARIA tablist (arrow keys,
 * Home and End move between tabs, one tab stop); tabs that are screens (`route` on every item) are
 * links marked `aria-current`, so they can be opened in a new tab and the URL says where you are.
 */
export function Tabs<Id extends string>(props: {
  label: string;
  items: TabItem<Id>[];
  active: Id | undefined;
  onSelect?: (id: Id) => void;
  class?: string;
  /** Vertical tabs (a side navigation) move with Up/Down instead of Left/Right. */
  vertical?: boolean;
  /** The id prefix of the panels (`<prefix>-<id>`), for aria-controls. */
  panelPrefix?: string;
}) {
  const { items, active } = props;
  if (items.every((item) => item.route)) {
    return (
      <nav class={props.class ?? 'tabs'} aria-label={props.label}>
        <ul>
          {items.map((item) => (
            <li key={item.id}>
              <Link
                to={item.route!}
                class="tab"
                data-testid={item.testid}
                aria-current={item.id === active ? 'page' : undefined}
              >
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    );
  }
  const select = (id: Id) => props.onSelect?.(id);
  const onKeyDown = (event: KeyboardEvent) => {
    const index = items.findIndex((item) => item.id === active);
    const next = props.vertical ? 'ArrowDown' : 'ArrowRight';
    const previous = props.vertical ? 'ArrowUp' : 'ArrowLeft';
    let to: number | undefined;
    if (event.key === next) to = (index + 1) % items.length;
    else if (event.key === previous) to = (index - 1 + items.length) % items.length;
    else if (event.key === 'Home') to = 0;
    else if (event.key === 'End') to = items.length - 1;
    if (to === undefined) return;
    event.preventDefault();
    select(items[to]!.id);
    const list = event.currentTarget as HTMLElement;
    requestAnimationFrame(() => list.querySelector<HTMLElement>('[aria-selected="true"]')?.focus());
  };
  return (
    <div
      class={props.class ?? 'tabs'}
      role="tablist"
      aria-label={props.label}
      aria-orientation={props.vertical ? 'vertical' : 'horizontal'}
      onKeyDown={onKeyDown}
    >
      {items.map((item) => (
        <button
          key={item.id}
          type="button"
          role="tab"
          class="tab"
          id={props.panelPrefix ? `${props.panelPrefix}-tab-${item.id}` : undefined}
          aria-controls={props.panelPrefix ? `${props.panelPrefix}-${item.id}` : undefined}
          aria-selected={item.id === active}
          tabIndex={item.id === active ? 0 : -1}
          data-testid={item.testid}
          onClick={() => select(item.id)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

/** The panel of a tablist's tab. */
export function TabPanel(props: { prefix: string; id: string; children: ComponentChildren; class?: string }) {
  return (
    <div
      role="tabpanel"
      id={`${props.prefix}-${props.id}`}
      aria-labelledby={`${props.prefix}-tab-${props.id}`}
      class={props.class}
    >
      {props.children}
    </div>
  );
}
