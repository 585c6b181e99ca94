import { icon } from '../ui/icons';
import { h } from '../ui/dom';
import './undo-toast.css';

/**
 * A notice with an Undo button ("Deleted “Guides” · Undo"), shown at the
 * bottom of the window for a while. Only one at a time: a newer one replaces
 * the older, whose offer ends (`expire` runs). It is a live region, so
 * screen readers hear it; the button is reachable with Tab.
 */
let current: { element: HTMLElement; expire: () => void; timer: ReturnType<typeof setTimeout> } | undefined;

/** How long the Undo offer stays. */
export const UNDO_TIMEOUT_MS = 10_000;

/** Shows `message` with Undo; `undo` runs on click, `expire` when the offer ends without it. */
export function undoToast(message: string, undo: () => void, expire: () => void): void {
  dismiss();
  const close = (run: () => void) => {
    if (current?.element !== element) return;
    clearTimeout(current.timer);
    current = undefined;
    element.remove();
    run();
  };
  const element = h(
    'div',
    { class: 'undo-toast', role: 'status', 'aria-live': 'polite', 'data-testid': 'undo-toast' },
    h('span', { class: 'undo-toast-message' }, message),
    h(
      'button',
      { type: 'button', class: 'undo-toast-button', 'data-testid': 'undo-delete', onclick: () => close(undo) },
      icon('undo'),
      'Undo',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'undo-toast-close',
        'aria-label': 'Dismiss',
        title: 'Dismiss',
        onclick: () => close(expire),
      },
      icon('x'),
    ),
  );
  // Into the app's notice stack when one is showing (so they never overlap), else on its own.
  const stack = document.querySelector('.toasts');
  if (stack) stack.append(element);
  else document.body.append(element);
  current = { element, expire, timer: setTimeout(() => close(expire), UNDO_TIMEOUT_MS) };
}

/** Ends the shown offer, if any. */
function dismiss(): void {
  if (!current) return;
  const { element, expire, timer } = current;
  clearTimeout(timer);
  current = undefined;
  element.remove();
  expire();
}
