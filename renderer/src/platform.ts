import {
  applySettingsPatch,
  parseAccount,
  parseServerUrl,
  parseSettingsPatch,
  sanitizeSettings,
  type Account,
  type PlatformApi,
  type Settings,
} from '../../shared/desktop-api';
import type { BrowserSignInHooks } from './sign-in/device-flow';

export type { Account, MenuAction, PlatformApi, RecentSpace, Settings, SettingsPatch } from '../../shared/desktop-api';

/**
 * An account in use: a saved token account (desktop device token, pasted API token), or the web
 * app's session on the server that serves it, which has no token: the browser holds it in an
 * HttpOnly cookie the page never sees, so it is never saved in the account store either.
 */
export interface AppAccount extends Omit<Account, 'token'> {
  token?: string;
}

/** The desktop app's hook for signing in through the system browser (main/browser-sign-in.ts); absent on the web. */
export function browserSignInHooks(): BrowserSignInHooks | undefined {
  const api = (globalThis as { folio?: { browserSignIn?: BrowserSignInHooks } }).folio;
  return api?.browserSignIn;
}

/** The part of the Web Storage API the browser fallback needs (localStorage, or an in-memory stand-in). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** localStorage keys; everything Folio keeps there starts with `folio.`. */
export const STORAGE_KEYS = { settings: 'folio.settings', accounts: 'folio.accounts' } as const;

let defaultPlatform: PlatformApi | undefined;

/**
 * The platform API: the preload's `window.folio` in the desktop app, else the browser fallback
 * over localStorage. Pass `storage` to get a fallback over another store (tests do).
 */
export function platform(storage?: KeyValueStorage): PlatformApi {
  if (storage) return createBrowserPlatform(storage);
  const fromPreload = (globalThis as { folio?: PlatformApi }).folio;
  if (fromPreload) return fromPreload;
  defaultPlatform ??= createBrowserPlatform(browserStorage());
  return defaultPlatform;
}

/**
 * The web fallback: same validation and rules as the desktop app (shared/desktop-api.ts), kept
 * in `storage`. Tokens are stored as given — a browser has no OS keychain to encrypt them with.
 */
export function createBrowserPlatform(storage: KeyValueStorage): PlatformApi {
  const readJson = (key: string): unknown => {
    const raw = storage.getItem(key);
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return undefined; // A corrupt entry reads as "nothing saved" rather than breaking the app.
    }
  };
  const readSettings = (): Settings => sanitizeSettings(readJson(STORAGE_KEYS.settings));
  const writeSettings = (settings: Settings): void => storage.setItem(STORAGE_KEYS.settings, JSON.stringify(settings));
  const readAccounts = (): Account[] => {
    const stored = readJson(STORAGE_KEYS.accounts);
    if (!Array.isArray(stored)) return [];
    return stored.flatMap((entry) => {
      try {
        return [parseAccount(entry)];
      } catch {
        return [];
      }
    });
  };
  const writeAccounts = (accounts: Account[]): void => storage.setItem(STORAGE_KEYS.accounts, JSON.stringify(accounts));

  // `async` so validation errors reject the promise, as they do across the desktop IPC.
  return {
    platform: 'web',
    settings: {
      async get() {
        return readSettings();
      },
      async update(patch) {
        const next = applySettingsPatch(readSettings(), parseSettingsPatch(patch));
        writeSettings(next);
        return next;
      },
    },
    accounts: {
      async list() {
        return readAccounts();
      },
      async save(account) {
        const valid = parseAccount(account);
        writeAccounts([...readAccounts().filter((a) => a.serverUrl !== valid.serverUrl), valid]);
      },
      async remove(serverUrl) {
        const url = parseServerUrl(serverUrl);
        writeAccounts(readAccounts().filter((a) => a.serverUrl !== url));
        const settings = readSettings();
        if (settings.activeServerUrl === url)
          writeSettings(applySettingsPatch(settings, { activeServerUrl: undefined }));
      },
    },
    onMenu() {
      return () => {};
    },
  };
}

/** localStorage, or a per-page memory store where it is unavailable (e.g. blocked storage). */
function browserStorage(): KeyValueStorage {
  try {
    const storage = globalThis.localStorage;
    if (storage) return storage;
  } catch {
    // Accessing localStorage throws a SecurityError when the browser blocks site data.
  }
  const memory = new Map<string, string>();
  return { getItem: (key) => memory.get(key) ?? null, setItem: (key, value) => void memory.set(key, value) };
}
