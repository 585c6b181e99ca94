import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../sync-server/config';
import { loadSecretBox, SecretBox, SecretBoxError, SECRET_KEY_FILE } from '../../sync-server/store/secret-box';

const box = SecretBox.fromKey(randomBytes(32));

const failure = (fn: () => unknown): SecretBoxError => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SecretBoxError);
    return err as SecretBoxError;
  }
  throw new Error('expected a SecretBoxError');
};

describe('SecretBox', () => {
  it('seals to a versioned value that opens to the same text, never the same twice', () => {
    for (const plain of ['ghp_s3cr3t-token', '', 'pässwörd 🔑 with spaces', 'x'.repeat(10_000)]) {
      const sealed = box.seal(plain);
      expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]{11}:[A-Za-z0-9_-]+$/);
      if (plain) expect(sealed).not.toContain(plain);
      expect(box.open(sealed)).toBe(plain);
      expect(box.seal(plain)).not.toBe(sealed); // a fresh IV each time
    }
    expect(SecretBox.isSealed(box.seal('a'))).toBe(true);
    expect(SecretBox.isSealed('plain text')).toBe(false);
  });

  it('says a value sealed with another key was, rather than answering garbage', () => {
    const other = SecretBox.fromKey(randomBytes(32));
    const err = failure(() => other.open(box.seal('token')));
    expect(err.code).toBe('wrong-key');
    expect(err.message).toMatch(/another key/);
  });

  it('refuses an altered value, and one moved to another record', () => {
    const sealed = box.seal('token', 'space-1');
    const payload = Buffer.from(sealed.split(':')[2]!, 'base64url');
    for (const at of [0, 14, payload.length - 1]) {
      const altered = Buffer.from(payload);
      altered[at]! ^= 1;
      const value = `v1:${box.keyId}:${altered.toString('base64url')}`;
      expect(failure(() => box.open(value, 'space-1')).code).toBe('tampered');
    }
    expect(failure(() => box.open(sealed, 'space-2')).code).toBe('tampered');
    expect(box.open(sealed, 'space-1')).toBe('token');
  });

  it('refuses malformed values and unknown versions with clear errors', () => {
    expect(failure(() => box.open('hunter2')).message).toMatch(/not a sealed secret/);
    expect(failure(() => box.open(`v2:${box.keyId}:AAAA`)).message).toMatch(/format \(v2\)/);
    expect(failure(() => box.open(`v1:${box.keyId}:AAAA`)).code).toBe('malformed');
    expect(failure(() => box.open(`v1:${box.keyId}:not base64!`)).code).toBe('malformed');
    expect(failure(() => box.open('v1:only-two')).code).toBe('malformed');
    expect(() => SecretBox.fromKey(randomBytes(16))).toThrow(SecretBoxError);
  });
});

describe('loadSecretBox', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'folio-secret-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('makes <dataDir>/secret.key once (mode 0600) and reads it on later starts', async () => {
    const first = await loadSecretBox({ dataDir: join(dataDir, 'nested') });
    const file = join(dataDir, 'nested', SECRET_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')).toHaveLength(32);
    const sealed = first.seal('token');
    const again = await loadSecretBox({ dataDir: join(dataDir, 'nested') });
    expect(again.open(sealed)).toBe('token');
  });

  it('gives processes starting together one key', async () => {
    const boxes = await Promise.all(Array.from({ length: 8 }, () => loadSecretBox({ dataDir })));
    expect(new Set(boxes.map((b) => b.keyId)).size).toBe(1);
  });

  it('uses FOLIO_SECRET_KEY when set, and writes no key file', async () => {
    const key = randomBytes(32).toString('base64');
    const a = await loadSecretBox({ secretKey: key, dataDir });
    const b = await loadSecretBox({ secretKey: key, dataDir: join(dataDir, 'elsewhere') });
    expect(b.open(a.seal('shared between processes'))).toBe('shared between processes');
    await expect(stat(join(dataDir, SECRET_KEY_FILE))).rejects.toThrow();
    // A file key and the setting's are different keys: what one sealed, the other says it cannot open.
    const fromFile = await loadSecretBox({ dataDir });
    expect(failure(() => fromFile.open(a.seal('x'))).code).toBe('wrong-key');
  });

  it('refuses a key file that holds no key', async () => {
    await writeFile(join(dataDir, SECRET_KEY_FILE), 'not a key\n');
    await expect(loadSecretBox({ dataDir })).rejects.toThrow(/does not hold a secret key/);
  });

  it('is checked at start: a malformed FOLIO_SECRET_KEY is refused without being repeated', () => {
    const bad = 'c2hvcnQta2V5';
    let err: unknown;
    try {
      loadConfig([], { FOLIO_SECRET_KEY: bad });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/32 bytes in base64/);
    expect((err as Error).message).not.toContain(bad);
    const key = randomBytes(32).toString('base64url');
    expect(loadConfig([], { FOLIO_SECRET_KEY: key }).secretKey).toBe(key);
  });
});
