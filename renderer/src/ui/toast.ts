import { h } from './dom';

/**
 * Short notices at the bottom of the window (an action failed, a comment was
 * queued, a merge succeeded). One live region, so screen readers announce them.
 */
let region: HTMLElement | undefined;

/** Shows `message` for a few seconds; the returned function takes it down sooner (work finished). */
export function toast(message: string, kind: 'info' | 'error' = 'info'): () => void {
  if (!region || !region.isConnected) {
    region = h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite', 'data-testid': 'toasts' });
    document.body.append(region);
  }
  const item = h('div', { class: `toast toast-${kind}` }, message);
  region.append(item);
  const timer = setTimeout(() => item.remove(), kind === 'error' ? 8000 : 4000);
  return () => {
    clearTimeout(timer);
    item.remove();
  };
}
