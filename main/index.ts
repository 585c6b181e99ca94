import { join, resolve } from 'node:path';
import { app, BrowserWindow, ipcMain, Menu, net, protocol, safeStorage, screen, session, shell } from 'electron';
import type { MenuAction } from '../shared/desktop-api';
import { APP_ORIGIN, APP_SCHEME_PRIVILEGES, registerAppProtocol } from './app-protocol';
import { BrowserSignIn } from './browser-sign-in';
import { DEEP_LINK_SCHEME, DeepLinkQueue, deepLinkInArgv, OPEN_URL_CHANNEL } from './deep-links';
import { MENU_CHANNEL } from './ipc-channels';
import { createHandlers, handlersSwitch, registerHandlers } from './ipc-handlers';
import { createMainWindow } from './main-window';
import { menuTemplate } from './menu';
import { applySecurityRestrictions, isTrustedSender } from './security';
import { SettingsStore } from './settings-store';
import { chooseTokenCipher } from './token-cipher';
import { restoreBounds, trackWindowBounds } from './window-state';

/**
 * The Electron main process, kept thin: it wires the modules next to it (security first,
 * then settings, IPC, menu and the one window). The logic lives in those modules, where
 * unit tests reach it without Electron.
 */

// The electron-vite dev server, only when running unpackaged (`electron-vite dev`).
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const appOrigins = [APP_ORIGIN, ...(devServerUrl ? [new URL(devServerUrl).origin] : [])];
const isMac = process.platform === 'darwin';

protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
app.enableSandbox();

// `folio://` links open this app (renderer/src/routes.ts maps them to screens).
const deepLinks = new DeepLinkQueue();
if (process.defaultApp && process.argv[1]) {
  // Unpackaged (`electron .`): register the interpreter with the app's path, as Electron documents.
  app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [resolve(process.argv[1])]);
} else app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
// macOS delivers links as events, also before `ready` on a cold start.
app.on('open-url', (event, url) => {
  event.preventDefault();
  deepLinks.push(url);
});
const launchLink = deepLinkInArgv(process.argv);
if (launchLink) deepLinks.push(launchLink);

// One process owns the settings file; a second launch focuses the running window instead.
if (!app.requestSingleInstanceLock()) app.quit();
else void start();

async function start(): Promise<void> {
  await app.whenReady();
  applySecurityRestrictions({ app, session: session.defaultSession, shell, appOrigins });
  registerAppProtocol(protocol, net, join(__dirname, '../renderer'));

  const { cipher, note } = chooseTokenCipher(safeStorage, process.platform);
  console.info(`Folio: ${note}`);
  const settingsFile = join(app.getPath('userData'), 'settings.json');
  const store = await SettingsStore.open(settingsFile, cipher);
  if (store.openReport.corruptBackup)
    console.warn(
      `Folio: ${settingsFile} was not valid JSON; moved to ${store.openReport.corruptBackup}, using defaults`,
    );
  else if (store.openReport.repaired) console.warn(`Folio: dropped invalid entries from ${settingsFile}`);

  const handlers = createHandlers(store, new BrowserSignIn((url) => shell.openExternal(url)));
  registerHandlers(ipcMain, handlers, (event) => isTrustedSender(event, appOrigins));

  let mainWindow: BrowserWindow | undefined;
  const openWindow = (): void => {
    const workAreas = screen.getAllDisplays().map((display) => display.workArea);
    mainWindow = createMainWindow({
      bounds: restoreBounds(store.getSettings().windowBounds, workAreas),
      preload: join(__dirname, '../preload/preload.cjs'),
      preloadArguments: [handlersSwitch(handlers)],
      url: devServerUrl ?? `${APP_ORIGIN}/index.html`,
      title: app.name,
    });
    trackWindowBounds(mainWindow, (bounds) => finishBeforeQuit(store.saveWindowBounds(bounds)));
    const window = mainWindow;
    window.webContents.on('did-finish-load', () =>
      deepLinks.attach((url) => {
        if (!window.isDestroyed()) window.webContents.send(OPEN_URL_CHANNEL, url);
      }),
    );
    mainWindow.on('closed', () => {
      mainWindow = undefined;
      deepLinks.detach();
    });
  };
  const send = (action: MenuAction): void => {
    if (mainWindow && !mainWindow.isDestroyed()) mainWindow.webContents.send(MENU_CHANNEL, action);
  };

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(menuTemplate({ appName: app.name, isMac, isDev: devServerUrl !== undefined, send })),
  );
  openWindow();

  app.on('second-instance', (_event, argv) => {
    const link = deepLinkInArgv(argv);
    if (link) deepLinks.push(link);
    if (!mainWindow) return openWindow();
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });
}

// Writes still under way when the app quits (the window's bounds are saved as it closes):
// quitting waits for them, so the last change is not lost (lowdb writes are atomic, not instant).
const pendingWrites = new Set<Promise<void>>();
function finishBeforeQuit(write: Promise<void>): Promise<void> {
  const tracked = write.finally(() => pendingWrites.delete(tracked));
  pendingWrites.add(tracked);
  return tracked;
}
app.on('will-quit', (event) => {
  if (pendingWrites.size === 0) return;
  event.preventDefault();
  void Promise.allSettled([...pendingWrites]).then(() => app.quit());
});

app.on('window-all-closed', () => {
  if (!isMac) app.quit();
});
