import { render } from 'preact';
import { Icon } from '../ui/kit/icon';
import './undo-toast.css';

/**
 * A notice with an Undo button ("Deleted “Guides” · Undo"), shown at the
 * bottom of the window for a while. Only one at a time: a newer one replaces
 * the older, whose offer ends (`expire` runs). It is a live region, so
 * screen readers hear it; the button is reachable with Tab.
 */
let current: { close: (run: 'undo' | 'expire') => void } | undefined;

/** How long the Undo offer stays. */
export const UNDO_TIMEOUT_MS = 10_000;

/** Shows `message` with Undo; `undo` runs on click, `expire` when the offer ends without it. */
export function undoToast(message: string, undo: () => void, expire: () => void): void {
  current?.close('expire');
  // Into the app's notice stack when one is showing (so they never overlap), else on its own.
  const host = document.createElement('div');
  (document.querySelector('.toasts') ?? document.body).append(host);
  const offer = {
    close: (run: 'undo' | 'expire') => {
      if (current !== offer) return;
      current = undefined;
      clearTimeout(timer);
      render(null, host);
      host.remove();
      (run === 'undo' ? undo : expire)();
    },
  };
  current = offer;
  const timer = setTimeout(() => offer.close('expire'), UNDO_TIMEOUT_MS);
  render(<UndoToast message={message} close={offer.close} />, host);
}

function UndoToast({ message, close }: { message: string; close: (run: 'undo' | 'expire') => void }) {
  return (
    <div class="undo-toast" role="status" aria-live="polite" data-testid="undo-toast">
      <span class="undo-toast-message">{message}</span>
      <button type="button" class="undo-toast-button" data-testid="undo-delete" onClick={() => close('undo')}>
        <Icon name="undo" />
        Undo
      </button>
      <button
        type="button"
        class="undo-toast-close"
        aria-label="Dismiss"
        title="Dismiss"
        onClick={() => close('expire')}
      >
        <Icon name="x" />
      </button>
    </div>
  );
}
