/**
 * The desktop preload API: the contract between the Electron main process (main/) and the
 * renderer (renderer/), which reaches it through `platform()` in renderer/src/platform.ts.
 *
 * The interfaces are the contract (see notes/platform-api.md) and must not change shape.
 * The validators and rules below are shared by both implementations — the main process's
 * IPC handlers (where the renderer is untrusted) and the browser fallback — so they behave
 * alike. They are hand-written rather than TypeBox schemas because this module also runs in
 * the renderer under a Content Security Policy without `unsafe-eval`.
 */

/** A signed-in account on one Folio server. `serverUrl` is the account's key. */
export interface Account {
  serverUrl: string;
  token: string;
  displayName?: string;
  userId?: string;
}

/** A space the user opened recently, for the start screen. */
export interface RecentSpace {
  serverUrl: string;
  spaceId: string;
  title: string;
  /** ISO 8601 timestamp. */
  openedAt: string;
}

/** Where the main window was; written by the main process only. */
export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized?: boolean;
}

/** The user's preferences (everything but the accounts). */
export interface Settings {
  /** The account in use. */
  activeServerUrl?: string;
  /** Most recent first, at most {@link MAX_RECENT_SPACES}. */
  recentSpaces: RecentSpace[];
  /** Main process only writes this. */
  windowBounds?: WindowBounds;
  theme?: 'system' | 'light' | 'dark';
}

/** A command chosen in the application menu, forwarded to the renderer. */
export type MenuAction =
  'new-page' | 'new-change-request' | 'toggle-preview' | 'find-page' | 'sign-out' | 'open-settings';

/** What the renderer may patch through `settings.update`. */
export type SettingsPatch = Partial<Omit<Settings, 'windowBounds'>>;

/** The API the renderer uses: the preload's `window.folio` or the browser fallback. */
export interface PlatformApi {
  platform: 'desktop' | 'web';
  settings: { get(): Promise<Settings>; update(patch: SettingsPatch): Promise<Settings> };
  accounts: {
    list(): Promise<Account[]>;
    save(account: Account): Promise<void>;
    remove(serverUrl: string): Promise<void>;
  };
  /** Subscribes to application-menu commands; returns an unsubscribe function. The web fallback never fires. */
  onMenu(listener: (action: MenuAction) => void): () => void;
}

/** Every menu action, for validating what crosses the IPC boundary. */
export const MENU_ACTIONS: readonly MenuAction[] = [
  'new-page',
  'new-change-request',
  'toggle-preview',
  'find-page',
  'sign-out',
  'open-settings',
];

/** The themes a user may choose. */
export const THEMES: readonly NonNullable<Settings['theme']>[] = ['system', 'light', 'dark'];

/** How many recent spaces are kept. */
export const MAX_RECENT_SPACES = 20;

/** Settings before the user changed anything. */
export function defaultSettings(): Settings {
  return { recentSpaces: [] };
}

/** Type guard for {@link MenuAction}. */
export function isMenuAction(value: unknown): value is MenuAction {
  return typeof value === 'string' && (MENU_ACTIONS as readonly string[]).includes(value);
}

/** A value the renderer sent that the API refuses; the message says which field and why. */
export class DesktopApiError extends Error {
  override name = 'DesktopApiError';
}

const MAX_URL_LENGTH = 2048;
const MAX_TOKEN_LENGTH = 8192;
const MAX_TEXT_LENGTH = 1000;

function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function fail(field: string, why: string): never {
  throw new DesktopApiError(`${field} ${why}`);
}

/** Rejects keys the contract does not know: the renderer is untrusted, so nothing unexpected is stored. */
function onlyKeys(record: Record<string, unknown>, allowed: readonly string[], field: string): void {
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) fail(`${field}.${key}`, 'is not a known field');
  }
}

function text(value: unknown, field: string, max = MAX_TEXT_LENGTH, allowEmpty = true): string {
  if (typeof value !== 'string') fail(field, 'must be a string');
  if (!allowEmpty && value.length === 0) fail(field, 'must not be empty');
  if (value.length > max) fail(field, `must be at most ${max} characters`);
  return value;
}

/** A server URL: absolute http(s), no credentials in it (tokens belong in `token`). */
export function parseServerUrl(value: unknown, field = 'serverUrl'): string {
  const raw = text(value, field, MAX_URL_LENGTH, false);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(field, 'must be an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(field, 'must be an http: or https: URL');
  if (url.username || url.password) fail(field, 'must not contain credentials');
  return raw;
}

/** Validates an account sent by the renderer. */
export function parseAccount(value: unknown): Account {
  if (!isRecord(value)) fail('account', 'must be an object');
  onlyKeys(value, ['serverUrl', 'token', 'displayName', 'userId'], 'account');
  const account: Account = {
    serverUrl: parseServerUrl(value.serverUrl, 'account.serverUrl'),
    token: text(value.token, 'account.token', MAX_TOKEN_LENGTH, false),
  };
  if (value.displayName !== undefined) account.displayName = text(value.displayName, 'account.displayName', 200);
  if (value.userId !== undefined) account.userId = text(value.userId, 'account.userId', 200);
  return account;
}

/** Validates one recent-space entry. */
export function parseRecentSpace(value: unknown, field = 'recentSpace'): RecentSpace {
  if (!isRecord(value)) fail(field, 'must be an object');
  onlyKeys(value, ['serverUrl', 'spaceId', 'title', 'openedAt'], field);
  const openedAt = text(value.openedAt, `${field}.openedAt`, 64, false);
  if (Number.isNaN(Date.parse(openedAt))) fail(`${field}.openedAt`, 'must be an ISO 8601 timestamp');
  return {
    serverUrl: parseServerUrl(value.serverUrl, `${field}.serverUrl`),
    spaceId: text(value.spaceId, `${field}.spaceId`, 200, false),
    title: text(value.title, `${field}.title`),
    openedAt,
  };
}

/**
 * Validates a `settings.update` patch. A key present with the value `undefined` clears that
 * setting. `windowBounds` is refused: only the main process decides where the window is.
 */
export function parseSettingsPatch(value: unknown): SettingsPatch {
  if (!isRecord(value)) fail('patch', 'must be an object');
  if ('windowBounds' in value) fail('patch.windowBounds', 'is written by the main process only');
  onlyKeys(value, ['activeServerUrl', 'recentSpaces', 'theme'], 'patch');
  const patch: SettingsPatch = {};
  if ('activeServerUrl' in value) {
    patch.activeServerUrl =
      value.activeServerUrl === undefined ? undefined : parseServerUrl(value.activeServerUrl, 'patch.activeServerUrl');
  }
  if ('theme' in value) {
    if (value.theme !== undefined && !(THEMES as readonly unknown[]).includes(value.theme))
      fail('patch.theme', `must be one of ${THEMES.join(', ')}`);
    patch.theme = value.theme as Settings['theme'];
  }
  if ('recentSpaces' in value) {
    const list = value.recentSpaces;
    if (!Array.isArray(list)) fail('patch.recentSpaces', 'must be an array');
    // Bounded before parsing so a huge array cannot keep the main process busy.
    if (list.length > MAX_RECENT_SPACES * 5)
      fail('patch.recentSpaces', `must have at most ${MAX_RECENT_SPACES * 5} entries`);
    patch.recentSpaces = list.map((entry, i) => parseRecentSpace(entry, `patch.recentSpaces[${i}]`));
  }
  return patch;
}

/** Most recent first, one entry per (server, space), at most {@link MAX_RECENT_SPACES}. */
export function normalizeRecentSpaces(list: readonly RecentSpace[]): RecentSpace[] {
  const newestFirst = [...list].sort((a, b) => Date.parse(b.openedAt) - Date.parse(a.openedAt));
  const seen = new Set<string>();
  const result: RecentSpace[] = [];
  for (const entry of newestFirst) {
    const key = JSON.stringify([entry.serverUrl, entry.spaceId]);
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(entry);
    if (result.length === MAX_RECENT_SPACES) break;
  }
  return result;
}

/** The settings after a validated patch; keys present with `undefined` are removed. */
export function applySettingsPatch(current: Settings, patch: SettingsPatch): Settings {
  const next: Settings = { ...current, recentSpaces: [...current.recentSpaces] };
  if ('activeServerUrl' in patch) {
    if (patch.activeServerUrl === undefined) delete next.activeServerUrl;
    else next.activeServerUrl = patch.activeServerUrl;
  }
  if ('theme' in patch) {
    if (patch.theme === undefined) delete next.theme;
    else next.theme = patch.theme;
  }
  if (patch.recentSpaces) next.recentSpaces = normalizeRecentSpaces(patch.recentSpaces);
  return next;
}

/** Recovers what is valid from stored settings (a hand-edited or older file); drops the rest. */
export function sanitizeSettings(value: unknown): Settings {
  const settings = defaultSettings();
  if (!isRecord(value)) return settings;
  const keep = <T>(parse: () => T): T | undefined => {
    try {
      return parse();
    } catch {
      return undefined;
    }
  };
  const active = keep(() => parseServerUrl(value.activeServerUrl));
  if (active !== undefined) settings.activeServerUrl = active;
  if ((THEMES as readonly unknown[]).includes(value.theme)) settings.theme = value.theme as Settings['theme'];
  if (Array.isArray(value.recentSpaces)) {
    const entries = value.recentSpaces.map((entry) => keep(() => parseRecentSpace(entry)));
    settings.recentSpaces = normalizeRecentSpaces(entries.filter((entry): entry is RecentSpace => entry !== undefined));
  }
  const bounds = sanitizeWindowBounds(value.windowBounds);
  if (bounds) settings.windowBounds = bounds;
  return settings;
}

/** Window bounds if they are plausible numbers, else undefined. */
export function sanitizeWindowBounds(value: unknown): WindowBounds | undefined {
  if (!isRecord(value)) return undefined;
  const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && Math.abs(n) < 100_000;
  if (!finite(value.width) || !finite(value.height) || value.width <= 0 || value.height <= 0) return undefined;
  const bounds: WindowBounds = { width: Math.round(value.width), height: Math.round(value.height) };
  if (finite(value.x) && finite(value.y)) {
    bounds.x = Math.round(value.x);
    bounds.y = Math.round(value.y);
  }
  if (value.maximized === true) bounds.maximized = true;
  return bounds;
}
