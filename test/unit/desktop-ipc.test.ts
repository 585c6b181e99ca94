import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DesktopApiError, parseAccount, parseServerUrl, parseSettingsPatch } from '../../shared/desktop-api';
import { channelName, readHandlerDescription } from '../../main/ipc-channels';
import { createHandlers, describeHandlers, handlersSwitch, registerHandlers } from '../../main/ipc-handlers';
import { isTrustedSender } from '../../main/security';
import { APP_ORIGIN } from '../../main/app-protocol';
import { SettingsStore } from '../../main/settings-store';
import { plainTokenCipher } from '../../main/token-cipher';

describe('IPC argument validation (the renderer is untrusted)', () => {
  it('accepts a well-formed account and refuses everything else with a message naming the field', () => {
    expect(
      parseAccount({ serverUrl: 'http://127.0.0.1:8080', token: 'tok', displayName: 'Ada', userId: 'u1' }),
    ).toEqual({
      serverUrl: 'http://127.0.0.1:8080',
      token: 'tok',
      displayName: 'Ada',
      userId: 'u1',
    });
    const refused: [unknown, RegExp][] = [
      [null, /account must be an object/],
      [['https://a.example', 'tok'], /account must be an object/],
      [{ serverUrl: 'https://a.example' }, /account.token must be a string/],
      [{ serverUrl: 'https://a.example', token: '' }, /account.token must not be empty/],
      [{ serverUrl: 'file:///etc/passwd', token: 't' }, /account.serverUrl must be an http: or https: URL/],
      [{ serverUrl: 'https://user:pw@a.example', token: 't' }, /must not contain credentials/],
      [{ serverUrl: 'not a url', token: 't' }, /must be an absolute URL/],
      [{ serverUrl: 'https://a.example', token: 't', admin: true }, /account.admin is not a known field/],
      [{ serverUrl: 'https://a.example', token: 'x'.repeat(9000) }, /at most 8192/],
      [{ serverUrl: 'https://a.example', token: 't', displayName: 42 }, /account.displayName must be a string/],
    ];
    for (const [value, message] of refused)
      expect(() => parseAccount(value), JSON.stringify(value)?.slice(0, 60)).toThrow(message);
  });

  it('validates settings patches; windowBounds belongs to the main process', () => {
    expect(parseSettingsPatch({ theme: 'dark', activeServerUrl: 'https://a.example' })).toEqual({
      theme: 'dark',
      activeServerUrl: 'https://a.example',
    });
    expect(parseSettingsPatch({ activeServerUrl: undefined })).toEqual({ activeServerUrl: undefined });
    expect(() => parseSettingsPatch({ windowBounds: { width: 1, height: 1 } })).toThrow(/main process only/);
    expect(() => parseSettingsPatch({ theme: 'neon' })).toThrow(/patch.theme must be one of system, light, dark/);
    expect(() => parseSettingsPatch({ recentSpaces: 'all' })).toThrow(/must be an array/);
    expect(() =>
      parseSettingsPatch({
        recentSpaces: [{ serverUrl: 'https://a.example', spaceId: 's', title: 't', openedAt: 'yesterday' }],
      }),
    ).toThrow(/patch.recentSpaces\[0\].openedAt must be an ISO 8601 timestamp/);
    expect(() => parseSettingsPatch({ recentSpaces: Array.from({ length: 101 }, () => ({})) })).toThrow(
      /at most 100 entries/,
    );
    expect(() => parseSettingsPatch({ __proto__: { polluted: true }, extra: 1 })).toThrow(DesktopApiError);
    expect(() => parseSettingsPatch(new Date())).toThrow(/patch must be an object/);
  });

  it('validates a server URL argument', () => {
    expect(parseServerUrl('https://a.example/base')).toBe('https://a.example/base');
    expect(() => parseServerUrl(42)).toThrow(/serverUrl must be a string/);
  });
});

/** Records what registerHandlers gives ipcMain.handle, as Electron would. */
function standInIpcMain() {
  const listeners = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
  return {
    listeners,
    handle(channel: string, listener: (event: never, ...args: unknown[]) => Promise<unknown>) {
      listeners.set(channel, listener as (event: unknown, ...args: unknown[]) => Promise<unknown>);
    },
  };
}

const appFrame = { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: null } };

describe('IPC handlers over folio:* channels', () => {
  let dir: string;
  let store: SettingsStore;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-ipc-'));
    store = await SettingsStore.open(join(dir, 'settings.json'), plainTokenCipher);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const register = () => {
    const ipc = standInIpcMain();
    const handlers = createHandlers(store);
    const channels = registerHandlers(ipc, handlers, (event) => isTrustedSender(event, [APP_ORIGIN]));
    const invoke = (channel: string, event: unknown, ...args: unknown[]) => ipc.listeners.get(channel)!(event, ...args);
    return { ipc, handlers, channels, invoke };
  };

  it('registers one channel per handler, and tells the preload the same names', () => {
    const { ipc, handlers, channels } = register();
    expect(channels).toEqual([
      'folio:settings:get',
      'folio:settings:update',
      'folio:accounts:list',
      'folio:accounts:save',
      'folio:accounts:remove',
    ]);
    expect([...ipc.listeners.keys()]).toEqual(channels);
    const description = readHandlerDescription(['electron', '--some-flag', handlersSwitch(handlers)]);
    expect(description).toEqual(describeHandlers(handlers));
    expect(Object.entries(description).flatMap(([ns, methods]) => methods.map((m) => channelName(ns, m)))).toEqual(
      channels,
    );
    expect(readHandlerDescription(['--folio-handlers={broken'])).toEqual({});
  });

  it('answers the app and stores validated values', async () => {
    const { invoke } = register();
    await invoke('folio:accounts:save', appFrame, { serverUrl: 'https://a.example', token: 'tok' });
    expect(await invoke('folio:accounts:list', appFrame)).toEqual([{ serverUrl: 'https://a.example', token: 'tok' }]);
    expect(await invoke('folio:settings:update', appFrame, { theme: 'light' })).toEqual({
      theme: 'light',
      recentSpaces: [],
    });
    await invoke('folio:accounts:remove', appFrame, 'https://a.example');
    expect(await invoke('folio:accounts:list', appFrame)).toEqual([]);
  });

  it('rejects invalid arguments and stores nothing', async () => {
    const { invoke } = register();
    await expect(
      invoke('folio:accounts:save', appFrame, { serverUrl: 'javascript:alert(1)', token: 't' }),
    ).rejects.toThrow(/http: or https:/);
    await expect(
      invoke('folio:settings:update', appFrame, { windowBounds: { width: 10, height: 10 } }),
    ).rejects.toThrow(/main process only/);
    await expect(invoke('folio:accounts:remove', appFrame, { serverUrl: 'https://a.example' })).rejects.toThrow(
      /serverUrl must be a string/,
    );
    await expect(invoke('folio:settings:get', appFrame, 'surplus')).rejects.toThrow(/takes 0 argument\(s\), got 1/);
    expect(store.listAccounts()).toEqual([]);
    expect(store.getSettings()).toEqual({ recentSpaces: [] });
  });

  it('refuses calls from anything but the app page', async () => {
    const { invoke } = register();
    const foreign = [
      { senderFrame: { url: 'https://evil.example/', parent: null } },
      { senderFrame: { url: `${APP_ORIGIN}/index.html`, parent: {} } },
      { senderFrame: null },
    ];
    for (const event of foreign)
      await expect(invoke('folio:accounts:list', event)).rejects.toThrow(/not the Folio app/);
  });
});
