import { SHORTCUTS } from '../shortcuts';
import { Dialog, DialogActions, openDialog } from '../ui/kit/dialog';

/** Keys that are not menu shortcuts but worth knowing (the palette, the editor, the page tree). */
function moreKeys(mod: string): [keys: string, label: string][] {
  return [
    [`${mod}+K, then >`, 'Run a command by name (search palette)'],
    ['↑ / ↓, Enter', 'Choose a search result: opens the page at its section'],
    [`${mod}+Alt+S`, 'Markdown source or live preview (in the editor)'],
    ['Alt+↑ / Alt+↓', 'Move the focused page up or down (page tree)'],
    ['Alt+→ / Alt+←', 'Nest or un-nest the focused page (page tree)'],
    ['F2 / Delete', 'Rename or delete the focused page (page tree)'],
    ['Ctrl+Z / Ctrl+Shift+Z', 'Undo or redo your own edits'],
  ];
}

/** Whether the dialog is up: the shortcut pressed again does not stack a second one. */
let showing = false;

/** Shows the keyboard shortcuts in a dialog (from the workspace's button, its shortcut, the palette). */
export function showShortcutHelp(): void {
  if (showing) return;
  showing = true;
  const mod = /Mac/.test(navigator.platform) ? '⌘' : 'Ctrl';
  const rows: [string, string][] = [
    ...SHORTCUTS.map((s): [string, string] => [s.keys.replace('Mod', mod), s.label]),
    ...moreKeys(mod),
  ];
  void openDialog<void>((close) => (
    <Dialog title="Keyboard shortcuts" onClose={() => close()} testid="shortcuts-dialog">
      <table>
        <tbody>
          {rows.map(([keys, label]) => (
            <tr key={keys}>
              <td>
                <kbd>{keys}</kbd>
              </td>
              <td>{label}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <DialogActions>
        <button type="button" onClick={() => close()}>
          Close
        </button>
      </DialogActions>
    </Dialog>
  )).finally(() => {
    showing = false;
  });
}
