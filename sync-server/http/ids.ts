import { randomBytes, createHash } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * A random identifier of `length` characters from [a-zA-Z0-9], which matches
 * GitBook's `^[a-zA-Z0-9_-]+$` id pattern. 20 characters carry ~119 bits.
 */
export function newId(length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  // Rejection sampling keeps the distribution uniform (248 = 62 * 4).
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out.length === length ? out : out + newId(length - out.length);
}

/** A new API token: a recognizable prefix plus 256 random bits. */
export function newApiToken(): string {
  return `folio_${randomBytes(32).toString('base64url')}`;
}

/**
 * The plain SHA-256 of a token: an in-memory fingerprint (read-cache keys, rate-limit
 * counters, a socket's credential) and the legacy stored form. What the database
 * stores is the keyed digest of identity/token-digest.ts.
 */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
