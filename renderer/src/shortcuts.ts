import type { MenuAction } from './platform';
import { platform } from './platform';

/**
 * Keyboard shortcuts of the common actions, and the desktop menu's commands
 * (which carry the same accelerators in the app menu) routed to the same
 * handlers. "Mod" is Ctrl, or Cmd on macOS.
 */

/** An action a shortcut or menu item runs. */
export type ShortcutAction =
  'new-page' | 'new-change-request' | 'toggle-preview' | 'find-page' | 'comment' | 'upload-image' | 'show-shortcuts';

/** Shortcut -> action, as shown in the help dialog. */
export const SHORTCUTS: readonly { keys: string; action: ShortcutAction; label: string }[] = [
  { keys: 'Mod+Alt+N', action: 'new-page', label: 'New page' },
  { keys: 'Mod+Alt+R', action: 'new-change-request', label: 'New change request' },
  { keys: 'Mod+Alt+P', action: 'toggle-preview', label: 'Show or hide the reading view' },
  { keys: 'Mod+K', action: 'find-page', label: 'Search pages and run commands' },
  { keys: 'Mod+Alt+M', action: 'comment', label: 'Comment on the page' },
  { keys: 'Mod+Alt+I', action: 'upload-image', label: 'Insert an image' },
  { keys: 'Mod+/', action: 'show-shortcuts', label: 'Show keyboard shortcuts' },
];

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Whether a keydown matches a shortcut like "Mod+Alt+N" (letters by physical key, so Alt's composed characters still match). */
export function matches(
  event: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>,
  keys: string,
  mac = isMac,
): boolean {
  const parts = keys.split('+');
  const key = parts.pop()!;
  const want = { mod: parts.includes('Mod'), alt: parts.includes('Alt'), shift: parts.includes('Shift') };
  const mod = mac ? event.metaKey : event.ctrlKey;
  if (mod !== want.mod || event.altKey !== want.alt || (want.shift && !event.shiftKey)) return false;
  if (/^[A-Z]$/.test(key)) return event.code === `Key${key}` || event.key.toUpperCase() === key;
  return event.key === key;
}

/** Installs the shortcuts and the menu routing; returns the uninstall function. */
export function installShortcuts(
  run: (action: ShortcutAction) => void,
  onMenuOnly: (action: MenuAction) => void,
): () => void {
  const onKey = (event: KeyboardEvent) => {
    const hit = SHORTCUTS.find((s) => matches(event, s.keys));
    if (!hit) return;
    event.preventDefault();
    event.stopPropagation();
    run(hit.action);
  };
  window.addEventListener('keydown', onKey, true);
  const offMenu = platform().onMenu((action) => {
    if (action === 'sign-out' || action === 'open-settings') onMenuOnly(action);
    else run(action);
  });
  return () => {
    window.removeEventListener('keydown', onKey, true);
    offMenu();
  };
}
