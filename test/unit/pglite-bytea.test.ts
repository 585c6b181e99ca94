import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { byteaToHex, hexToBytea } from '../../sync-server/store/pglite-bytea';
import { pgliteOptions } from '../../sync-server/store/pglite';

/**
 * bytea through Node's hex codec in PGlite (Folio's options): every byte
 * value, empty values and views into a larger buffer go in and come back
 * exactly, as Buffers.
 */
let pg: PGlite;
beforeAll(async () => {
  const { serializers, parsers } = pgliteOptions();
  pg = new PGlite({ serializers, parsers });
  await pg.waitReady;
  await pg.query('CREATE TABLE t (id int PRIMARY KEY, b bytea)');
});
afterAll(async () => {
  await pg?.close();
});

it('round-trips every byte value, the empty value and a view into a larger buffer', async () => {
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const backing = Buffer.from('xxxxHELLOyyyy');
  const view = new Uint8Array(backing.buffer, backing.byteOffset + 4, 5);
  const values: Uint8Array[] = [all, Buffer.alloc(0), view, new Uint8Array([0, 255, 10, 92])];
  for (const [i, value] of values.entries()) await pg.query('INSERT INTO t VALUES ($1, $2)', [i, value]);
  const rows = (await pg.query<{ id: number; b: Uint8Array }>('SELECT id, b FROM t ORDER BY id')).rows;
  expect(rows.map((r) => Buffer.from(r.b).toString('hex'))).toEqual(values.map((v) => Buffer.from(v).toString('hex')));
  expect(rows[2]!.b).toBeInstanceOf(Buffer);
  // What PostgreSQL itself makes of the parameter: the same bytes.
  const hex = (await pg.query<{ h: string }>("SELECT encode(b, 'hex') AS h FROM t WHERE id = 2")).rows[0]!.h;
  expect(hex).toBe(Buffer.from('HELLO').toString('hex'));
});

it('refuses what is not bytes, and the escape format', () => {
  expect(() => byteaToHex('text')).toThrow(/Uint8Array/);
  expect(hexToBytea('\\x00ff').equals(Buffer.from([0, 255]))).toBe(true);
  expect(() => hexToBytea('\\000')).toThrow(/escape format/);
});
