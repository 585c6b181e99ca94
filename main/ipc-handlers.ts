import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import {
  parseAccount,
  parseServerUrl,
  parseSettingsPatch,
  DesktopApiError,
  type PlatformApi,
} from '../shared/desktop-api';
import { channelName, HANDLERS_SWITCH, type HandlerDescription } from './ipc-channels';
import type { BrowserSignIn } from './browser-sign-in';
import type { SettingsStore } from './settings-store';

/** The part of the preload API that main answers over `ipcRenderer.invoke`. */
type InvokableApi = Omit<PlatformApi, 'platform' | 'onMenu'>;

/**
 * Handler objects shaped like the preload API. Arguments are `unknown`: they come from the
 * renderer, which is untrusted, so every handler parses them before use.
 */
export type HandlersFor<Api> = {
  [Namespace in keyof Api]: {
    [Method in keyof Api[Namespace]]: Api[Namespace][Method] extends (...args: never[]) => Promise<infer R>
      ? (...args: unknown[]) => Promise<R>
      : never;
  };
};

/**
 * The handlers: the single source of truth for what the preload exposes (the preload builds
 * its `invoke` wrappers from {@link describeHandlers}, never from its own list). With
 * `browserSignIn`, also `browserSignIn.listen/openAndWait`: signing in through the system
 * browser (renderer/src/sign-in/device-flow.ts).
 */
export function createHandlers(store: SettingsStore, browserSignIn?: BrowserSignIn) {
  const base = {
    settings: {
      get: async () => store.getSettings(),
      update: async (patch: unknown) => store.updateSettings(parseSettingsPatch(patch)),
    },
    accounts: {
      list: async () => store.listAccounts(),
      save: async (account: unknown) => store.saveAccount(parseAccount(account)),
      remove: async (serverUrl: unknown) => store.removeAccount(parseServerUrl(serverUrl)),
    },
  } satisfies HandlersFor<InvokableApi>;
  if (!browserSignIn) return base;
  return {
    ...base,
    browserSignIn: {
      listen: async () => browserSignIn.listen(),
      openAndWait: async (id: unknown, url: unknown) => browserSignIn.openAndWait(id, url),
    },
  };
}

/** Names every handler, for the preload (passed as {@link HANDLERS_SWITCH}). */
export function describeHandlers(handlers: HandlersFor<InvokableApi>): HandlerDescription {
  return Object.fromEntries(Object.entries(handlers).map(([namespace, methods]) => [namespace, Object.keys(methods)]));
}

/** The switch value for `webPreferences.additionalArguments`. */
export function handlersSwitch(handlers: HandlersFor<InvokableApi>): string {
  return HANDLERS_SWITCH + JSON.stringify(describeHandlers(handlers));
}

/**
 * Registers one `ipcMain.handle` per handler. Calls from a frame that is not the app (a page
 * the window was tricked into loading) and calls with surplus arguments are refused.
 */
export function registerHandlers(
  ipcMain: Pick<IpcMain, 'handle'>,
  handlers: HandlersFor<InvokableApi>,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
): string[] {
  const channels: string[] = [];
  for (const [namespace, methods] of Object.entries(handlers)) {
    for (const [method, handler] of Object.entries(
      methods as Record<string, (...args: unknown[]) => Promise<unknown>>,
    )) {
      const channel = channelName(namespace, method);
      ipcMain.handle(channel, async (event, ...args: unknown[]) => {
        if (!isTrustedSender(event)) throw new DesktopApiError(`${channel} refused: the caller is not the Folio app`);
        if (args.length > handler.length)
          throw new DesktopApiError(`${channel} takes ${handler.length} argument(s), got ${args.length}`);
        return handler(...args);
      });
      channels.push(channel);
    }
  }
  return channels;
}
