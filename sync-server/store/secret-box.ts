import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSecretKey } from '../config';

/**
 * Secrets at rest (Git credentials, later integration secrets): sealed with AES-256-GCM before
 * they reach the database, so a database dump or backup holds no usable credential.
 *
 * A sealed value is `v1:<key id>:<base64url(iv ‖ tag ‖ ciphertext)>`:
 * - `v1` lets a later format (or algorithm) be read next to this one;
 * - the key id (a hash of the key, which reveals nothing of it) tells "sealed with another key"
 *   (the key was lost or changed) apart from "altered", so the error says what to do;
 * - a fresh 96-bit IV per seal; GCM's tag makes any change to the value an error, never garbage;
 * - the version, key id and the caller's `context` (say, the space id) are authenticated data:
 *   a sealed value copied into another record does not open there.
 */

export const SECRET_KEY_FILE = 'secret.key';
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type SecretBoxErrorCode = 'malformed' | 'wrong-key' | 'tampered' | 'key-file';

/** A secret that cannot be opened, or a key that cannot be used; the message says what to do. */
export class SecretBoxError extends Error {
  constructor(
    readonly code: SecretBoxErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/** Seals and opens strings with one 256-bit key. */
export class SecretBox {
  /** Identifies the key in sealed values (8 bytes of a hash of it: one-way, and no use to an attacker). */
  readonly keyId: string;

  private constructor(private readonly key: Buffer) {
    this.keyId = createHash('sha256').update('folio secret-box key id\0').update(key).digest('base64url').slice(0, 11);
  }

  /** A box over `key`, which must be 32 bytes. */
  static fromKey(key: Uint8Array): SecretBox {
    if (key.length !== 32) throw new SecretBoxError('key-file', 'a secret key is 32 bytes');
    return new SecretBox(Buffer.from(key));
  }

  /** Whether `value` looks like a sealed value (of any version): stored secrets are never plain text. */
  static isSealed(value: string): boolean {
    return /^v\d+:/.test(value);
  }

  private aad(keyId: string, context: string): Buffer {
    return Buffer.from(`folio-secret\0${VERSION}\0${keyId}\0${context}`, 'utf8');
  }

  /** Seals `plain`; `context` (say, the record's id) must be given again to open it. */
  seal(plain: string, context = ''): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(this.aad(this.keyId, context));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const payload = Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
    return `${VERSION}:${this.keyId}:${payload.toString('base64url')}`;
  }

  /** Opens a value `seal` made with the same key and context; throws SecretBoxError otherwise. */
  open(sealed: string, context = ''): string {
    const parts = sealed.split(':');
    if (parts[0] !== VERSION)
      throw new SecretBoxError(
        'malformed',
        SecretBox.isSealed(sealed)
          ? `this secret was sealed in a format (${parts[0]}) this server does not read`
          : 'this value is not a sealed secret',
      );
    const [, keyId, encoded] = parts;
    if (parts.length !== 3 || !keyId || !encoded || !/^[A-Za-z0-9_-]+$/.test(encoded))
      throw new SecretBoxError('malformed', 'this sealed secret is malformed');
    if (keyId !== this.keyId)
      throw new SecretBoxError(
        'wrong-key',
        "this secret was sealed with another key (FOLIO_SECRET_KEY or the data folder's secret.key changed): enter it again",
      );
    const payload = Buffer.from(encoded, 'base64url');
    if (payload.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('malformed', 'this sealed secret is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.key, payload.subarray(0, IV_BYTES));
    decipher.setAAD(this.aad(keyId, context));
    decipher.setAuthTag(payload.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(payload.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretBoxError(
        'tampered',
        'this sealed secret was altered, damaged or belongs to another record: enter it again',
      );
    }
  }
}

/**
 * The server's box: the key from FOLIO_SECRET_KEY when set, otherwise from `<dataDir>/secret.key`,
 * which the first start makes (mode 0600). Several processes must use the same key: they share the
 * file when they share the data folder; otherwise give each the same FOLIO_SECRET_KEY.
 */
export async function loadSecretBox(options: { secretKey?: string | undefined; dataDir: string }): Promise<SecretBox> {
  if (options.secretKey !== undefined) {
    if (!isSecretKey(options.secretKey))
      throw new SecretBoxError('key-file', 'FOLIO_SECRET_KEY must be 32 bytes in base64');
    return SecretBox.fromKey(Buffer.from(options.secretKey.trim(), 'base64'));
  }
  const path = join(options.dataDir, SECRET_KEY_FILE);
  const text = (await readKeyFile(path)) ?? (await createKeyFile(options.dataDir, path));
  if (!isSecretKey(text))
    throw new SecretBoxError('key-file', `${path} does not hold a secret key (32 bytes in base64)`);
  return SecretBox.fromKey(Buffer.from(text.trim(), 'base64'));
}

async function readKeyFile(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SecretBoxError('key-file', `${path} cannot be read: ${(err as Error).message}`);
  }
}

/**
 * Writes a new key to a private temporary file, then links it into place: link() fails if the
 * file exists, so of several processes starting at once exactly one key wins, and nobody ever
 * reads a key file that is still being written.
 */
async function createKeyFile(dataDir: string, path: string): Promise<string> {
  await mkdir(dataDir, { recursive: true });
  const text = `${randomBytes(32).toString('base64')}\n`;
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, text, { mode: 0o600, flag: 'wx', flush: true });
    await link(temp, path);
    return text;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return (await readKeyFile(path)) ?? '';
    throw new SecretBoxError('key-file', `${path} cannot be created: ${(err as Error).message}`);
  } finally {
    await rm(temp, { force: true });
  }
}
