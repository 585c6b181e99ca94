/**
 * Ids of entities inside a content document (pages, files, reusable
 * contents): 20 characters of [a-zA-Z0-9], like GitBook's. They are minted
 * on any replica without coordination, so they must be random enough never
 * to collide (62^20 ≈ 7e35) — hence the CSPRNG, available as
 * `globalThis.crypto` both in Node 20 and in browsers.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** Length of a generated id. */
export const ENTITY_ID_LENGTH = 20;
/** Bytes >= this are rejected so that `byte % 62` stays uniform (248 = 4 * 62). */
const UNBIASED_LIMIT = 248;

/** A new random entity id. */
export function newEntityId(): string {
  let id = '';
  const bytes = new Uint8Array(32);
  while (id.length < ENTITY_ID_LENGTH) {
    globalThis.crypto.getRandomValues(bytes);
    for (const b of bytes) {
      if (b >= UNBIASED_LIMIT) continue;
      id += ALPHABET[b % ALPHABET.length];
      if (id.length === ENTITY_ID_LENGTH) break;
    }
  }
  return id;
}

/**
 * Whether `id` may be used as a caller-chosen entity id: 1..64 characters of
 * [a-zA-Z0-9_-]. Ids end up in URLs and in markdown links (`/pages/<id>`),
 * so anything needing escaping is refused.
 */
export function isValidEntityId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(id);
}
