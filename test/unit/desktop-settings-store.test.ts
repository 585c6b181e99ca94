import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RECENT_SPACES, type RecentSpace } from '../../shared/desktop-api';
import { SettingsStore } from '../../main/settings-store';
import { chooseTokenCipher, plainTokenCipher, type TokenCipher } from '../../main/token-cipher';

/** A stand-in for Electron's safeStorage (which needs a running Electron): a reversible byte scramble. */
function fakeSafeStorage(options: { available?: boolean; backend?: 'basic_text' | 'gnome_libsecret' } = {}) {
  const scramble = (bytes: Buffer): Buffer => Buffer.from(bytes.map((b) => b ^ 0x5a));
  return {
    isEncryptionAvailable: () => options.available ?? true,
    encryptString: (plain: string) => scramble(Buffer.from(`sealed:${plain}`)),
    decryptString: (sealed: Buffer) => {
      const text = scramble(sealed).toString();
      if (!text.startsWith('sealed:')) throw new Error('Error while decrypting the ciphertext');
      return text.slice('sealed:'.length);
    },
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
  };
}

const encrypting: TokenCipher = chooseTokenCipher(fakeSafeStorage(), 'linux').cipher;

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-desktop-'));
  file = join(dir, 'nested', 'settings.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const space = (spaceId: string, openedAt: string, serverUrl = 'https://docs.example.com'): RecentSpace => ({
  serverUrl,
  spaceId,
  title: `Space ${spaceId}`,
  openedAt,
});
const readRaw = async (): Promise<string> => readFile(file, 'utf8');

describe('SettingsStore (lowdb file)', () => {
  it('starts with defaults and creates the file (and its folder)', async () => {
    const store = await SettingsStore.open(file, plainTokenCipher);
    expect(store.getSettings()).toEqual({ recentSpaces: [] });
    expect(store.listAccounts()).toEqual([]);
    expect(JSON.parse(await readRaw())).toMatchObject({ version: 1, settings: { recentSpaces: [] }, accounts: [] });
    expect(store.openReport).toEqual({ repaired: false });
  });

  it('keeps settings across restarts', async () => {
    const first = await SettingsStore.open(file, plainTokenCipher);
    await first.updateSettings({ activeServerUrl: 'https://docs.example.com', theme: 'dark' });
    await first.saveWindowBounds({ x: 10, y: 20, width: 1000, height: 700, maximized: true });
    const second = await SettingsStore.open(file, plainTokenCipher);
    expect(second.getSettings()).toEqual({
      activeServerUrl: 'https://docs.example.com',
      theme: 'dark',
      recentSpaces: [],
      windowBounds: { x: 10, y: 20, width: 1000, height: 700, maximized: true },
    });
  });

  it('clears a setting patched to undefined', async () => {
    const store = await SettingsStore.open(file, plainTokenCipher);
    await store.updateSettings({ activeServerUrl: 'https://a.example', theme: 'light' });
    expect(await store.updateSettings({ theme: undefined })).toEqual({
      activeServerUrl: 'https://a.example',
      recentSpaces: [],
    });
  });

  it('keeps recent spaces newest first, one per space, at most 20', async () => {
    const store = await SettingsStore.open(file, plainTokenCipher);
    const many = Array.from({ length: 30 }, (_, i) => space(`s${i}`, new Date(Date.UTC(2024, 0, 1 + i)).toISOString()));
    // s3 opened again later: the older duplicate goes, the newer one counts.
    many.push(space('s3', '2025-06-01T00:00:00.000Z'));
    const settings = await store.updateSettings({ recentSpaces: many });
    expect(settings.recentSpaces).toHaveLength(MAX_RECENT_SPACES);
    expect(settings.recentSpaces[0]?.spaceId).toBe('s3');
    expect(settings.recentSpaces[1]?.spaceId).toBe('s29');
    expect(settings.recentSpaces.filter((s) => s.spaceId === 's3')).toHaveLength(1);
    // Same space id on another server is another entry.
    const two = await store.updateSettings({
      recentSpaces: [space('x', '2024-01-01T00:00:00Z'), space('x', '2024-01-02T00:00:00Z', 'https://other.example')],
    });
    expect(two.recentSpaces.map((s) => s.serverUrl)).toEqual(['https://other.example', 'https://docs.example.com']);
  });

  it('returns copies, so callers cannot change the stored settings by mutation', async () => {
    const store = await SettingsStore.open(file, plainTokenCipher);
    store.getSettings().recentSpaces.push(space('mutated', '2024-01-01T00:00:00Z'));
    expect(store.getSettings().recentSpaces).toEqual([]);
  });

  it('saves, replaces and removes accounts; removing the active one clears activeServerUrl', async () => {
    const store = await SettingsStore.open(file, plainTokenCipher);
    await store.saveAccount({ serverUrl: 'https://a.example', token: 'gb_api_one', displayName: 'Ada' });
    await store.saveAccount({ serverUrl: 'https://b.example', token: 'gb_api_two', userId: 'u2' });
    await store.saveAccount({ serverUrl: 'https://a.example', token: 'gb_api_three' });
    await store.updateSettings({ activeServerUrl: 'https://a.example' });
    expect(store.listAccounts()).toEqual([
      { serverUrl: 'https://b.example', token: 'gb_api_two', userId: 'u2' },
      { serverUrl: 'https://a.example', token: 'gb_api_three' },
    ]);
    await store.removeAccount('https://a.example');
    const reopened = await SettingsStore.open(file, plainTokenCipher);
    expect(reopened.listAccounts().map((a) => a.serverUrl)).toEqual(['https://b.example']);
    expect(reopened.getSettings().activeServerUrl).toBeUndefined();
  });

  it('applies concurrent writes without losing any', async () => {
    const store = await SettingsStore.open(file, plainTokenCipher);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => store.saveAccount({ serverUrl: `https://s${i}.example`, token: `t${i}` })),
    );
    const reopened = await SettingsStore.open(file, plainTokenCipher);
    expect(reopened.listAccounts()).toHaveLength(12);
  });
});

describe('SettingsStore tokens at rest', () => {
  it('encrypts tokens with safeStorage when it is available', async () => {
    const store = await SettingsStore.open(file, encrypting);
    await store.saveAccount({ serverUrl: 'https://a.example', token: 'gb_api_secret' });
    expect(await readRaw()).not.toContain('gb_api_secret');
    expect(JSON.parse(await readRaw()).accounts[0].tokenEncryption).toBe('safeStorage');
    expect((await SettingsStore.open(file, encrypting)).listAccounts()).toEqual([
      { serverUrl: 'https://a.example', token: 'gb_api_secret' },
    ]);
  });

  it('stores tokens as given when encryption is unavailable, and says so', async () => {
    const choice = chooseTokenCipher(fakeSafeStorage({ available: false }), 'linux');
    expect(choice.cipher.kind).toBe('none');
    expect(choice.note).toMatch(/unencrypted/);
    const store = await SettingsStore.open(file, choice.cipher);
    await store.saveAccount({ serverUrl: 'https://a.example', token: 'gb_api_plain' });
    expect(await readRaw()).toContain('gb_api_plain');
  });

  it('names the weak basic_text backend on Linux', () => {
    expect(chooseTokenCipher(fakeSafeStorage({ backend: 'basic_text' }), 'linux').note).toMatch(/weak/);
    expect(chooseTokenCipher(fakeSafeStorage({ backend: 'basic_text' }), 'darwin').note).not.toMatch(/weak/);
  });

  it('encrypts tokens saved in plain text once encryption becomes available', async () => {
    const plain = await SettingsStore.open(file, plainTokenCipher);
    await plain.saveAccount({ serverUrl: 'https://a.example', token: 'gb_api_upgrade' });
    const upgraded = await SettingsStore.open(file, encrypting);
    expect(await readRaw()).not.toContain('gb_api_upgrade');
    expect(upgraded.listAccounts()).toEqual([{ serverUrl: 'https://a.example', token: 'gb_api_upgrade' }]);
  });

  it('leaves out accounts whose token no longer decrypts, but keeps them on disk', async () => {
    const store = await SettingsStore.open(file, encrypting);
    await store.saveAccount({ serverUrl: 'https://a.example', token: 'gb_api_locked' });
    const withoutKeychain = await SettingsStore.open(file, plainTokenCipher);
    expect(withoutKeychain.listAccounts()).toEqual([]);
    expect(JSON.parse(await readRaw()).accounts).toHaveLength(1);
    // A token that was tampered with does not decrypt either.
    const raw = JSON.parse(await readRaw());
    raw.accounts[0].token = Buffer.from('garbage').toString('base64');
    await writeFile(file, JSON.stringify(raw));
    expect((await SettingsStore.open(file, encrypting)).listAccounts()).toEqual([]);
  });
});

describe('SettingsStore recovery', () => {
  it('moves a file that is not JSON aside and starts from defaults', async () => {
    await SettingsStore.open(file, plainTokenCipher);
    await writeFile(file, '{"version":1,"settings":{"theme":"da');
    const store = await SettingsStore.open(file, plainTokenCipher);
    expect(store.openReport.corruptBackup).toBe(`${file}.corrupt`);
    expect(store.getSettings()).toEqual({ recentSpaces: [] });
    expect(await readFile(`${file}.corrupt`, 'utf8')).toBe('{"version":1,"settings":{"theme":"da');
    expect(JSON.parse(await readRaw()).version).toBe(1);
    await store.updateSettings({ theme: 'light' });
    expect((await SettingsStore.open(file, plainTokenCipher)).getSettings().theme).toBe('light');
  });

  it('keeps the valid parts of a file with invalid fields', async () => {
    await SettingsStore.open(file, plainTokenCipher);
    await writeFile(
      file,
      JSON.stringify({
        version: 1,
        settings: {
          activeServerUrl: 'javascript:alert(1)',
          theme: 'neon',
          recentSpaces: [space('ok', '2024-01-01T00:00:00Z'), { spaceId: 'no-server' }, 'junk'],
          windowBounds: { width: -5, height: 'tall' },
        },
        accounts: [
          { serverUrl: 'https://a.example', token: 't', tokenEncryption: 'none' },
          { serverUrl: 'ftp://b.example', token: 't', tokenEncryption: 'none' },
          { serverUrl: 'https://c.example', token: 't', tokenEncryption: 'rot13' },
          null,
        ],
      }),
    );
    const store = await SettingsStore.open(file, plainTokenCipher);
    expect(store.openReport.repaired).toBe(true);
    expect(store.getSettings()).toEqual({ recentSpaces: [space('ok', '2024-01-01T00:00:00Z')] });
    expect(store.listAccounts()).toEqual([{ serverUrl: 'https://a.example', token: 't' }]);
  });

  it('ignores implausible window bounds', async () => {
    const store = await SettingsStore.open(file, plainTokenCipher);
    await store.saveWindowBounds({ width: Number.NaN, height: 600 });
    expect(store.getSettings().windowBounds).toBeUndefined();
  });
});
