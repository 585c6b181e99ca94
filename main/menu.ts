import type { MenuItemConstructorOptions } from 'electron';
import type { MenuAction } from '../shared/desktop-api';

/** What the menu depends on; `send` forwards an action to the renderer. */
export interface MenuOptions {
  appName: string;
  /** macOS gets the app menu and keeps Settings there. */
  isMac: boolean;
  /** Reload and developer tools are offered only in development. */
  isDev: boolean;
  send: (action: MenuAction) => void;
}

/**
 * The application menu. Items that act on documents send a {@link MenuAction} to the renderer,
 * which owns the behaviour; the rest are Electron roles (copy, paste, minimize ...).
 */
export function menuTemplate({ appName, isMac, isDev, send }: MenuOptions): MenuItemConstructorOptions[] {
  const action = (label: string, menuAction: MenuAction, accelerator?: string): MenuItemConstructorOptions => ({
    label,
    id: menuAction,
    ...(accelerator ? { accelerator } : {}),
    click: () => send(menuAction),
  });
  const settings = action(isMac ? 'Settings…' : 'Settings', 'open-settings', 'CmdOrCtrl+,');

  const appMenu: MenuItemConstructorOptions = {
    label: appName,
    submenu: [
      { role: 'about' },
      { type: 'separator' },
      settings,
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' },
    ],
  };
  const fileMenu: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      action('New Page', 'new-page', 'CmdOrCtrl+N'),
      action('New Change Request', 'new-change-request', 'CmdOrCtrl+Shift+N'),
      { type: 'separator' },
      ...(isMac ? [] : [settings, { type: 'separator' } as const]),
      action('Sign Out', 'sign-out'),
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const viewMenu: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      action('Toggle Preview', 'toggle-preview', 'CmdOrCtrl+Shift+P'),
      action('Find Page…', 'find-page', 'CmdOrCtrl+P'),
      { type: 'separator' },
      ...(isDev
        ? ([
            { role: 'reload' },
            { role: 'forceReload' },
            { role: 'toggleDevTools' },
            { type: 'separator' },
          ] satisfies MenuItemConstructorOptions[])
        : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const helpMenu: MenuItemConstructorOptions = {
    role: 'help',
    submenu: isMac ? [] : [{ role: 'about', label: `About ${appName}` }],
  };
  return [...(isMac ? [appMenu] : []), fileMenu, { role: 'editMenu' }, viewMenu, { role: 'windowMenu' }, helpMenu];
}
