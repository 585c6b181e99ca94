import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isMenuAction, type MenuAction, type PlatformApi } from '../shared/desktop-api';
import { isDeepLink, OPEN_URL_CHANNEL } from './deep-links';
import { channelName, MENU_CHANNEL, readHandlerDescription } from './ipc-channels';

/**
 * The preload (sandboxed, context-isolated): exposes `window.folio`, the {@link PlatformApi}.
 * Its invoke wrappers are built from the handler names main passes on the command line, so
 * main's handler objects stay the single source of truth (AFFiNE's pattern). The renderer
 * gets functions only — never `ipcRenderer` itself, which would let it call any channel.
 */
const handlers = readHandlerDescription(process.argv);
if (Object.keys(handlers).length === 0)
  console.error('Folio preload: main passed no IPC handlers; window.folio is incomplete');

const invokers = Object.fromEntries(
  Object.entries(handlers).map(([namespace, methods]) => [
    namespace,
    Object.fromEntries(
      methods.map((method) => [
        method,
        (...args: unknown[]) => ipcRenderer.invoke(channelName(namespace, method), ...args),
      ]),
    ),
  ]),
);

// A link can arrive before the renderer subscribes (a cold start from a link): keep the last one.
let waitingLink: string | undefined;
let linkListener: ((url: string) => void) | undefined;
ipcRenderer.on(OPEN_URL_CHANNEL, (_event: IpcRendererEvent, url: unknown) => {
  if (!isDeepLink(url)) return;
  if (linkListener) linkListener(url);
  else waitingLink = url;
});

const api = {
  ...invokers,
  platform: 'desktop',
  onMenu(listener: (action: MenuAction) => void): () => void {
    const forward = (_event: IpcRendererEvent, action: unknown): void => {
      if (isMenuAction(action)) listener(action);
    };
    ipcRenderer.on(MENU_CHANNEL, forward);
    return () => void ipcRenderer.removeListener(MENU_CHANNEL, forward);
  },
  /** `folio://` links the operating system opened the app with (renderer/src/app.ts maps them to screens). */
  onOpenUrl(listener: (url: string) => void): () => void {
    linkListener = listener;
    const waiting = waitingLink;
    waitingLink = undefined;
    if (waiting) listener(waiting);
    return () => void (linkListener === listener && (linkListener = undefined));
  },
} as PlatformApi & { onOpenUrl(listener: (url: string) => void): () => void };

contextBridge.exposeInMainWorld('folio', api);
