/**
 * bytea (type 17) to and from PostgreSQL's hex text form with Node's Buffer
 * codec, for PGlite. PGlite's own converters go byte by byte in JavaScript
 * (a string per byte on the way in, parseInt per pair on the way out): an
 * 8 MB Yjs update or revision took ~1.7 s to write and ~0.5 s to read, all
 * on the event loop; Buffer's native hex codec does the same in ~0.16 s and
 * ~0.04 s. The PostgreSQL driver (pg) already decodes to Buffer natively.
 */
export const BYTEA_OID = 17;

/** A Uint8Array (or Buffer) as bytea's hex text, `\x0a1b…`. */
export function byteaToHex(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new TypeError('a bytea parameter must be a Uint8Array or Buffer');
  return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
}

/** bytea's hex text (`\x…`) as a Buffer (a Uint8Array, as PGlite's own parser returns). */
export function hexToBytea(text: string): Buffer {
  // Only the hex form is produced since PostgreSQL 9.0 (bytea_output = 'hex', the default).
  if (!text.startsWith('\\x')) throw new TypeError('bytea arrived in the escape format: set bytea_output = hex');
  return Buffer.from(text.slice(2), 'hex');
}
