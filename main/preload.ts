import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isMenuAction, type MenuAction, type PlatformApi } from '../shared/desktop-api';
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
} as PlatformApi;

contextBridge.exposeInMainWorld('folio', api);
