import { describe, expect, it } from 'vitest';
import { ConfigError, helpText, loadConfig, SETTINGS } from '../../sync-server/config';

describe('configuration', () => {
  it('has defaults for the embedded setup', () => {
    const c = loadConfig([], {});
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      adminToken: undefined,
      smtpUrl: undefined,
      help: false,
    });
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.publicUrl).toBe('http://127.0.0.1:8080');
  });

  it('reads env and lets flags win', () => {
    const env = {
      FOLIO_PORT: '9000',
      FOLIO_PUBLIC_URL: 'https://docs.example.com/',
      FOLIO_DATABASE_URL: 'postgres://u@h/db',
    };
    const c = loadConfig(['--port', '9100', '--host', '0.0.0.0'], env);
    expect(c).toMatchObject({
      port: 9100,
      host: '0.0.0.0',
      publicUrl: 'https://docs.example.com',
      databaseUrl: 'postgres://u@h/db',
    });
  });

  it('rejects bad values with readable errors', () => {
    expect(() => loadConfig(['--port', 'eighty'], {})).toThrow(ConfigError);
    expect(() => loadConfig([], { FOLIO_PORT: '70000' })).toThrow(/0\.\.65535/);
    expect(() => loadConfig([], { FOLIO_DATABASE_URL: 'mysql://x' })).toThrow(/postgres/);
    expect(() => loadConfig([], { FOLIO_PUBLIC_URL: 'not a url' })).toThrow(/not a URL/);
    expect(() => loadConfig([], { FOLIO_ADMIN_TOKEN: 'short' })).toThrow(/16/);
    expect(() => loadConfig(['--no-such-flag'], {})).toThrow(ConfigError);
  });

  it('takes a Redis URL only together with PostgreSQL, and a safe channel prefix', () => {
    const pg = { FOLIO_DATABASE_URL: 'postgres://u@h/db' };
    expect(loadConfig([], { ...pg, FOLIO_REDIS_URL: 'redis://127.0.0.1:6379' })).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379',
      redisPrefix: 'folio',
    });
    expect(() => loadConfig([], { FOLIO_REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(/needs FOLIO_DATABASE_URL/);
    expect(() => loadConfig([], { ...pg, FOLIO_REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/redis:\/\//);
    expect(() => loadConfig([], { ...pg, FOLIO_REDIS_PREFIX: 'a b' })).toThrow(/FOLIO_REDIS_PREFIX/);
  });

  it('documents every setting in --help', () => {
    expect(loadConfig(['--help'], {}).help).toBe(true);
    const text = helpText();
    for (const s of Object.values(SETTINGS)) {
      expect(text).toContain(`--${s.flag}`);
      expect(text).toContain(s.env);
    }
  });
});
