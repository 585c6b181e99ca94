import { BrowserWindow } from 'electron';
import type { WindowBounds } from '../shared/desktop-api';
import { MIN_WINDOW_SIZE } from './window-state';

/** What the one app window needs to open. */
export interface MainWindowOptions {
  bounds: WindowBounds;
  /** Absolute path of the built preload (out/preload/preload.cjs). */
  preload: string;
  /** Extra argv for the preload: the handler description (see `handlersSwitch`). */
  preloadArguments: string[];
  /** The renderer: the app scheme when packaged, the electron-vite dev server in development. */
  url: string;
  title: string;
}

/**
 * The app window, locked down: the renderer shows content from servers and markdown from
 * other people, so it gets no Node, runs sandboxed and isolated from the preload's world.
 * It is shown once the first paint is ready, so it never flashes white.
 */
export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const { bounds } = options;
  const win = new BrowserWindow({
    ...(bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    width: bounds.width,
    height: bounds.height,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    title: options.title,
    show: false,
    webPreferences: {
      preload: options.preload,
      additionalArguments: options.preloadArguments,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
    },
  });
  win.once('ready-to-show', () => {
    if (bounds.maximized) win.maximize();
    win.show();
  });
  void win.loadURL(options.url);
  return win;
}
