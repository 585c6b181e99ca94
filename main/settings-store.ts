import { mkdir, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import {
  applySettingsPatch,
  defaultSettings,
  parseAccount,
  sanitizeSettings,
  sanitizeWindowBounds,
  type Account,
  type Settings,
  type SettingsPatch,
  type WindowBounds,
} from '../shared/desktop-api';
import type { TokenCipher } from './token-cipher';

/** An account as written to disk: the token as the cipher left it. */
interface StoredAccount {
  serverUrl: string;
  token: string;
  tokenEncryption: TokenCipher['kind'];
  displayName?: string;
  userId?: string;
}

/** The settings file's shape; `version` allows later migrations. */
interface StoreData {
  version: 1;
  settings: Settings;
  accounts: StoredAccount[];
}

/** What happened while opening the file, for the log. */
export interface OpenReport {
  /** Set when the file was not valid JSON: where the unreadable file was moved to. */
  corruptBackup?: string;
  /** Fields or accounts that were invalid and dropped. */
  repaired: boolean;
}

function emptyData(): StoreData {
  return { version: 1, settings: defaultSettings(), accounts: [] };
}

/**
 * The desktop app's settings and accounts in one lowdb JSON file (under the user-data folder
 * in the app; any path in tests). Values are validated before they get here (the IPC
 * handlers parse renderer input); what is read from disk is sanitized, because the file may
 * be hand-edited, truncated by a crash or written by another version.
 */
export class SettingsStore {
  private constructor(
    private readonly db: Low<StoreData>,
    private readonly cipher: TokenCipher,
    /** What {@link SettingsStore.open} found. */
    readonly openReport: OpenReport,
  ) {}

  /** Opens (or creates) the store at `file`. A file that is not JSON is moved aside to `<file>.corrupt`. */
  static async open(file: string, cipher: TokenCipher): Promise<SettingsStore> {
    await mkdir(dirname(file), { recursive: true });
    const db = new Low<StoreData>(new JSONFile<StoreData>(file), emptyData());
    const report: OpenReport = { repaired: false };
    try {
      await db.read();
    } catch {
      // Invalid JSON (a crash mid-write by an older version, a bad hand edit): keep the bytes
      // for the user to inspect, start from defaults instead of refusing to start.
      report.corruptBackup = `${file}.corrupt`;
      await rename(file, report.corruptBackup);
      db.data = emptyData();
    }
    const before = JSON.stringify(db.data);
    db.data = sanitizeData(db.data, cipher);
    report.repaired = report.corruptBackup === undefined && before !== JSON.stringify(db.data);
    await db.write();
    return new SettingsStore(db, cipher, report);
  }

  /** The current settings (a copy). */
  getSettings(): Settings {
    return structuredClone(this.db.data.settings);
  }

  /** Applies a validated patch and returns the new settings. */
  async updateSettings(patch: SettingsPatch): Promise<Settings> {
    await this.db.update((data) => {
      data.settings = applySettingsPatch(data.settings, patch);
    });
    return this.getSettings();
  }

  /** Remembers where the main window is. */
  async saveWindowBounds(bounds: WindowBounds): Promise<void> {
    const valid = sanitizeWindowBounds(bounds);
    if (!valid) return;
    await this.db.update((data) => {
      data.settings.windowBounds = valid;
    });
  }

  /** Accounts whose tokens can be read; one whose token no longer decrypts is left out (the user signs in again). */
  listAccounts(): Account[] {
    return this.db.data.accounts.flatMap((stored) => {
      const token = this.readToken(stored);
      if (token === undefined) return [];
      const account: Account = { serverUrl: stored.serverUrl, token };
      if (stored.displayName !== undefined) account.displayName = stored.displayName;
      if (stored.userId !== undefined) account.userId = stored.userId;
      return [account];
    });
  }

  /** Adds the account or replaces the one with the same server URL. */
  async saveAccount(account: Account): Promise<void> {
    const stored = storeAccount(account, this.cipher);
    await this.db.update((data) => {
      data.accounts = [...data.accounts.filter((a) => a.serverUrl !== account.serverUrl), stored];
    });
  }

  /** Forgets the account; signing out of the active server also clears `activeServerUrl`. */
  async removeAccount(serverUrl: string): Promise<void> {
    await this.db.update((data) => {
      data.accounts = data.accounts.filter((a) => a.serverUrl !== serverUrl);
      if (data.settings.activeServerUrl === serverUrl) {
        data.settings = applySettingsPatch(data.settings, { activeServerUrl: undefined });
      }
    });
  }

  private readToken(stored: StoredAccount): string | undefined {
    if (stored.tokenEncryption === 'none') return stored.token;
    if (this.cipher.kind !== stored.tokenEncryption) return undefined;
    try {
      return this.cipher.decrypt(stored.token);
    } catch {
      return undefined;
    }
  }
}

function storeAccount(account: Account, cipher: TokenCipher): StoredAccount {
  const stored: StoredAccount = {
    serverUrl: account.serverUrl,
    token: cipher.encrypt(account.token),
    tokenEncryption: cipher.kind,
  };
  if (account.displayName !== undefined) stored.displayName = account.displayName;
  if (account.userId !== undefined) stored.userId = account.userId;
  return stored;
}

/** Keeps what is valid; re-encrypts plain-text tokens once encryption is available. */
function sanitizeData(raw: unknown, cipher: TokenCipher): StoreData {
  const record = typeof raw === 'object' && raw !== null ? (raw as Partial<Record<keyof StoreData, unknown>>) : {};
  const accounts = Array.isArray(record.accounts) ? record.accounts : [];
  const byUrl = new Map<string, StoredAccount>();
  for (const entry of accounts) {
    const stored = sanitizeStoredAccount(entry, cipher);
    if (stored) byUrl.set(stored.serverUrl, stored);
  }
  return { version: 1, settings: sanitizeSettings(record.settings), accounts: [...byUrl.values()] };
}

function sanitizeStoredAccount(entry: unknown, cipher: TokenCipher): StoredAccount | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { tokenEncryption, ...rest } = entry as Record<string, unknown>;
  if (tokenEncryption !== 'none' && tokenEncryption !== 'safeStorage') return undefined;
  const { token } = rest;
  if (typeof token !== 'string' || token.length === 0) return undefined;
  let account: Account;
  try {
    // The stored token may be ciphertext (longer than a token may be), so it is checked above.
    account = { ...parseAccount({ ...rest, token: 'stored' }), token };
  } catch {
    return undefined;
  }
  if (tokenEncryption === 'none' && cipher.kind !== 'none') return storeAccount(account, cipher);
  return { ...account, tokenEncryption };
}
