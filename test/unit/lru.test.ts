import { describe, expect, it } from 'vitest';
import { Lru } from '../../sync-server/store/lru';

const keysOf = (lru: Lru<string, number>, keys: string[]) => keys.filter((k) => lru.get(k) !== undefined);

describe('Lru', () => {
  it('evicts the least recently inserted entry that was not read since', () => {
    const lru = new Lru<string, number>(4);
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) lru.set(k, i);
    // 'a' is in the older half: reading it makes it the most recent.
    expect(lru.get('a')).toBe(0);
    lru.set('e', 4);
    expect(keysOf(lru, ['a', 'b', 'c', 'd', 'e']).sort()).toEqual(['a', 'c', 'd', 'e']);
  });

  it('keeps a key read on every request however many others come and go', () => {
    const lru = new Lru<string, number>(8);
    lru.set('hot', -1);
    for (let i = 0; i < 1000; i++) {
      expect(lru.get('hot')).toBe(-1);
      lru.set(`k${i}`, i);
    }
    expect(lru.get('hot')).toBe(-1);
    // Still bounded: the hot key and the 7 newest others.
    expect(
      keysOf(
        lru,
        Array.from({ length: 1000 }, (_, i) => `k${i}`),
      ),
    ).toEqual(Array.from({ length: 7 }, (_, i) => `k${993 + i}`));
  });

  it('stays within its weight budget and refuses a value heavier than all of it', () => {
    const lru = new Lru<string, string>(100, { maxWeight: 10, weigh: (s) => s.length });
    lru.set('a', 'xxxx');
    lru.set('b', 'xxxx');
    lru.set('c', 'xxxx'); // 12 > 10: 'a' goes
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([undefined, 'xxxx', 'xxxx']);
    lru.set('huge', 'x'.repeat(11));
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.get('b')).toBe('xxxx');
  });

  it('replaces the value of a key set again', async () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('a', 2);
    lru.set('b', 3);
    expect(lru.get('a')).toBe(2);
    expect(await lru.getOrMake('c', async () => 4)).toBe(4);
    expect(await lru.getOrMake('c', async () => 5)).toBe(4);
  });
});
