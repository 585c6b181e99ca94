import { describe, expect, it } from 'vitest';
import { openPglite } from '../../sync-server/store/pglite';

/** PGlite belongs to one process: its named locks are an in-process mutex with the same contract as PostgreSQL's. */
describe('named locks on PGlite', () => {
  it('runs holders of one key one at a time, in order; a non-waiting caller gives up', async () => {
    const db = await openPglite(undefined);
    try {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const order: string[] = [];
      const first = db.withLock('k', async () => {
        order.push('first');
        await gate;
        return 1;
      });
      const second = db.withLock('k', async () => order.push('second'));
      expect(await db.withLock('k', async () => 'x', { wait: false })).toEqual({ acquired: false });
      expect(await db.withLock('other', async () => 'y', { wait: false })).toEqual({ acquired: true, value: 'y' });
      release();
      expect(await first).toEqual({ acquired: true, value: 1 });
      await second;
      expect(order).toEqual(['first', 'second']);
      // A holder that throws frees the lock too.
      await expect(db.withLock('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      expect(await db.withLock('k', async () => 'free', { wait: false })).toEqual({ acquired: true, value: 'free' });
    } finally {
      await db.close();
    }
  });
});
