import { describe, expect, it } from 'vitest';
import { ConfigError, helpText, loadConfig } from '../../sync-server/config';

/** FOLIO_IMPORT_MAX_FILE_BYTES and FOLIO_JOB_LEASE_MS: defaults, env and flags, and what they refuse. */
describe('import file limit and job lease settings', () => {
  it('default to 10 MiB per imported file and a 30 s lease', () => {
    expect(loadConfig([], {})).toMatchObject({ importMaxFileBytes: 10 * 1024 * 1024, jobLeaseMs: 30_000 });
  });

  it('read the environment, and flags win', () => {
    const env = { FOLIO_IMPORT_MAX_FILE_BYTES: '2097152', FOLIO_JOB_LEASE_MS: '6000' };
    expect(loadConfig([], env)).toMatchObject({ importMaxFileBytes: 2_097_152, jobLeaseMs: 6000 });
    expect(loadConfig(['--import-max-file-bytes', '4096', '--job-lease-ms', '1000'], env)).toMatchObject({
      importMaxFileBytes: 4096,
      jobLeaseMs: 1000,
    });
  });

  it('refuse values out of range or not integers, naming the setting', () => {
    for (const value of ['999', '0', '-5', '1500.5', 'soon', '3600001'])
      expect(() => loadConfig([], { FOLIO_JOB_LEASE_MS: value }), value).toThrow(
        new ConfigError(`FOLIO_JOB_LEASE_MS must be an integer 1000..3600000 (ms), got "${value}"`),
      );
    for (const value of ['1023', '104857601', '1e3', 'big'])
      expect(() => loadConfig([], { FOLIO_IMPORT_MAX_FILE_BYTES: value }), value).toThrow(
        /^FOLIO_IMPORT_MAX_FILE_BYTES must be/,
      );
  });

  it('are listed by --help with their defaults', () => {
    const text = helpText();
    expect(text).toMatch(/--import-max-file-bytes +FOLIO_IMPORT_MAX_FILE_BYTES .*\(default 10485760\)/);
    expect(text).toMatch(/--job-lease-ms +FOLIO_JOB_LEASE_MS .*\(default 30000\)/);
  });
});
