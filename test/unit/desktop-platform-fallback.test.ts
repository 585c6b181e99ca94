import { describe, expect, it } from 'vitest';
import { createBrowserPlatform, platform, STORAGE_KEYS, type KeyValueStorage } from '../../renderer/src/platform';

/** A tiny in-memory Web Storage for node, where there is no localStorage. */
function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { entries: Map<string, string> } {
  const entries = new Map(Object.entries(initial));
  return { entries, getItem: (key) => entries.get(key) ?? null, setItem: (key, value) => void entries.set(key, value) };
}

describe('platform() browser fallback', () => {
  it('is the web platform with default settings and no accounts', async () => {
    const api = platform(memoryStorage());
    expect(api.platform).toBe('web');
    expect(await api.settings.get()).toEqual({ recentSpaces: [] });
    expect(await api.accounts.list()).toEqual([]);
  });

  it('keeps settings and accounts under folio.* keys, across instances', async () => {
    const storage = memoryStorage();
    const api = createBrowserPlatform(storage);
    await api.settings.update({ theme: 'dark', activeServerUrl: 'http://127.0.0.1:3000' });
    await api.accounts.save({ serverUrl: 'http://127.0.0.1:3000', token: 'tok', displayName: 'Ada' });
    await api.accounts.save({ serverUrl: 'http://127.0.0.1:3000', token: 'tok2' });
    expect([...storage.entries.keys()].every((key) => key.startsWith('folio.'))).toBe(true);
    const again = createBrowserPlatform(storage);
    expect(await again.settings.get()).toEqual({
      theme: 'dark',
      activeServerUrl: 'http://127.0.0.1:3000',
      recentSpaces: [],
    });
    expect(await again.accounts.list()).toEqual([{ serverUrl: 'http://127.0.0.1:3000', token: 'tok2' }]);
    await again.accounts.remove('http://127.0.0.1:3000');
    expect(await again.accounts.list()).toEqual([]);
    expect((await again.settings.get()).activeServerUrl).toBeUndefined();
  });

  it('applies the same rules as the desktop app: recent spaces deduplicated and capped', async () => {
    const api = platform(memoryStorage());
    const recent = Array.from({ length: 25 }, (_, i) => ({
      serverUrl: 'https://a.example',
      spaceId: `s${i % 22}`,
      title: `S${i}`,
      openedAt: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
    }));
    const settings = await api.settings.update({ recentSpaces: recent });
    expect(settings.recentSpaces).toHaveLength(20);
    expect(settings.recentSpaces[0]).toMatchObject({ spaceId: 's2', title: 'S24' });
  });

  it('rejects invalid values like the desktop IPC does', async () => {
    const api = platform(memoryStorage());
    await expect(api.accounts.save({ serverUrl: 'ftp://a.example', token: 't' })).rejects.toThrow(/http: or https:/);
    await expect(api.settings.update({ windowBounds: { width: 1, height: 1 } } as never)).rejects.toThrow(
      /main process only/,
    );
  });

  it('reads a corrupt or tampered entry as nothing saved', async () => {
    const api = platform(
      memoryStorage({
        [STORAGE_KEYS.settings]: '{"theme":',
        [STORAGE_KEYS.accounts]: JSON.stringify([
          { serverUrl: 'https://ok.example', token: 't' },
          { serverUrl: 'nope' },
          7,
        ]),
      }),
    );
    expect(await api.settings.get()).toEqual({ recentSpaces: [] });
    expect(await api.accounts.list()).toEqual([{ serverUrl: 'https://ok.example', token: 't' }]);
  });

  it('never fires menu actions; unsubscribing is harmless', () => {
    const unsubscribe = platform(memoryStorage()).onMenu(() => {
      throw new Error('the web has no application menu');
    });
    expect(unsubscribe()).toBeUndefined();
  });
});
