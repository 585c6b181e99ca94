import { SHORTCUTS } from '../shortcuts';
import { h } from '../ui/dom';

/** Shows the keyboard shortcuts in a dialog. */
export function showShortcutHelp(): void {
  const mac = /Mac/.test(navigator.platform);
  const rows = SHORTCUTS.map((s) =>
    h('tr', {}, h('td', {}, h('kbd', {}, s.keys.replace('Mod', mac ? '⌘' : 'Ctrl'))), h('td', {}, s.label)),
  );
  const mod = mac ? '⌘' : 'Ctrl';
  const extra = [
    [`${mod}+K, then >`, 'Run a command by name (search palette)'],
    ['↑ / ↓, Enter', 'Choose a search result: opens the page at its section'],
    [`${mod}+Alt+S`, 'Markdown source or live preview (in the editor)'],
    ['Alt+↑ / Alt+↓', 'Move the focused page up or down (page tree)'],
    ['Alt+→ / Alt+←', 'Nest or un-nest the focused page (page tree)'],
    ['F2 / Delete', 'Rename or delete the focused page (page tree)'],
    ['Ctrl+Z / Ctrl+Shift+Z', 'Undo or redo your own edits'],
  ].map(([keys, label]) => h('tr', {}, h('td', {}, h('kbd', {}, keys!)), h('td', {}, label!)));
  const dialog = h(
    'dialog',
    { class: 'dialog', 'data-testid': 'shortcuts-dialog' },
    h('h2', {}, 'Keyboard shortcuts'),
    h('table', {}, ...rows, ...extra),
    h('form', { method: 'dialog' }, h('button', { type: 'submit' }, 'Close')),
  );
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}
