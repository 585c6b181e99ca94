import { createHash } from 'node:crypto';
import { ENTITY_ID_LENGTH } from '../../shared/doc/ids';

/**
 * Ids of generated pages: derived from the computation's seed and what the page shows (a tag, an
 * operation), never random, so a page keeps its id — and links to it, comments, bookmarks keep
 * working — as long as its tag or operation stays in the spec, however many versions come.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 20-character id like every entity id, from `seed` and `key`. */
export function derivedId(seed: string, key: string): string {
  const digest = createHash('sha256').update(seed).update('\0').update(key).digest();
  let id = '';
  // 32 bytes, 20 used: the modulo's slight bias is harmless for a derived (not secret) id.
  for (let i = 0; i < ENTITY_ID_LENGTH; i++) id += ALPHABET[digest[i]! % ALPHABET.length];
  return id;
}
