import { Icon } from '../../ui/kit/icon';

/** The drag grip of a sortable row (decorative: the keyboard uses Move up / Move down or Alt+↑/↓). */
export function DragGrip() {
  return (
    <span class="site-grip" aria-hidden="true" title="Drag to reorder">
      <Icon name="grip" />
    </span>
  );
}

/** Move up / Move down buttons of a row named `name`. */
export function MoveButtons(props: {
  name: string;
  index: number;
  count: number;
  busy: boolean;
  onStep: (by: -1 | 1) => void;
}) {
  const { name, index, count, busy } = props;
  if (count < 2) return null;
  return (
    <span class="site-move-buttons">
      <button
        type="button"
        class="icon-button"
        data-testid="move-up"
        aria-label={`Move ${name} up`}
        title="Move up (Alt+↑)"
        disabled={busy || index === 0}
        onClick={() => props.onStep(-1)}
      >
        <Icon name="chevron-down" class="site-icon-up" />
      </button>
      <button
        type="button"
        class="icon-button"
        data-testid="move-down"
        aria-label={`Move ${name} down`}
        title="Move down (Alt+↓)"
        disabled={busy || index === count - 1}
        onClick={() => props.onStep(1)}
      >
        <Icon name="chevron-down" />
      </button>
    </span>
  );
}
