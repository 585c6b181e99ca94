import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { alignBlocks, wordSimilarity, type AlignedRow } from '../../shared/markdown/block-align';

/** Alignment of two versions' blocks: equal blocks anchor, changed ones pair in order between anchors. */

const kinds = (rows: AlignedRow[]) =>
  rows.map((r) =>
    r.kind === 'same' || r.kind === 'modified'
      ? `${r.kind}:${r.source}=${r.current}`
      : r.kind === 'deleted'
        ? `deleted:${r.source}`
        : `added:${r.current}`,
  );

describe('alignBlocks', () => {
  it('equal pages: every block is the same', () => {
    expect(kinds(alignBlocks(['a', 'b'], ['a', 'b']))).toEqual(['same:0=0', 'same:1=1']);
  });

  it('pairs the changed blocks between two anchors in order', () => {
    expect(kinds(alignBlocks(['a', 'b', 'c', 'd'], ['a', 'B', 'C', 'd']))).toEqual([
      'same:0=0',
      'modified:1=1',
      'modified:2=2',
      'same:3=3',
    ]);
  });

  it('an added block between anchors is added; a deleted one deleted', () => {
    expect(kinds(alignBlocks(['a', 'b'], ['a', 'x', 'b']))).toEqual(['same:0=0', 'added:1', 'same:1=2']);
    expect(kinds(alignBlocks(['a', 'x', 'b'], ['a', 'b']))).toEqual(['same:0=0', 'deleted:1', 'same:2=1']);
  });

  it('more changed blocks on one side than the other: the rest is added or deleted', () => {
    expect(kinds(alignBlocks(['a', 'b', 'z'], ['a', 'B', 'C', 'z']))).toEqual([
      'same:0=0',
      'modified:1=1',
      'added:2',
      'same:2=3',
    ]);
  });

  it('a moved block is deleted where it was and added where it is', () => {
    expect(kinds(alignBlocks(['m', 'a', 'b'], ['a', 'b', 'm']))).toEqual([
      'deleted:0',
      'same:1=0',
      'same:2=1',
      'added:2',
    ]);
  });

  it('with a similarity, a changed block pairs with the old block it resembles, not the next in order', () => {
    // Deleted "gamma", edited "delta": in order, gamma would pair with the edited delta.
    const source = ['Alpha.', 'Gamma.', 'Delta.'];
    const current = ['Alpha.', 'Delta, edited.'];
    const sim = (s: number, c: number) => wordSimilarity(source[s]!, current[c]!);
    expect(kinds(alignBlocks(source, current))).toEqual(['same:0=0', 'modified:1=1', 'deleted:2']);
    expect(kinds(alignBlocks(source, current, sim))).toEqual(['same:0=0', 'deleted:1', 'modified:2=1']);
  });

  it('blocks nothing resembles pair in order when both sides have as many, else are deleted and added', () => {
    const source = ['a', 'x one', 'y two', 'b'];
    const sim = (cur: string[]) => (s: number, c: number) => wordSimilarity(source[s]!, cur[c]!);
    const rewritten = ['a', 'p', 'q', 'b'];
    expect(kinds(alignBlocks(source, rewritten, sim(rewritten)))).toEqual([
      'same:0=0',
      'modified:1=1',
      'modified:2=2',
      'same:3=3',
    ]);
    const fewer = ['a', 'p', 'b'];
    expect(kinds(alignBlocks(source, fewer, sim(fewer)))).toEqual([
      'same:0=0',
      'deleted:1',
      'deleted:2',
      'added:1',
      'same:3=2',
    ]);
  });

  it('wordSimilarity: shared words, case and punctuation aside', () => {
    expect(wordSimilarity('Hello, World!', 'hello world')).toBe(1);
    expect(wordSimilarity('one two', 'three')).toBe(0);
    expect(wordSimilarity('Beta 1.', 'Beta 2.')).toBe(0.5);
    expect(wordSimilarity('---', '***')).toBe(0);
  });

  it('empty sides', () => {
    expect(alignBlocks([], [])).toEqual([]);
    expect(kinds(alignBlocks([], ['a']))).toEqual(['added:0']);
    expect(kinds(alignBlocks(['a'], []))).toEqual(['deleted:0']);
  });

  it('every block of each side appears once, in order, and "same" rows hold equal blocks', () => {
    const side = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 12 });
    fc.assert(
      fc.property(side, side, fc.boolean(), (source, current, similar) => {
        const sim = (i: number, j: number) => (source[i]! < 'c' === current[j]! < 'c' ? 0.5 : 0);
        const rows = alignBlocks(source, current, similar ? sim : undefined);
        const s = rows.flatMap((r) => ('source' in r ? [r.source] : []));
        const c = rows.flatMap((r) => ('current' in r ? [r.current] : []));
        expect(s).toEqual(source.map((_, i) => i));
        expect(c).toEqual(current.map((_, i) => i));
        for (const r of rows) if (r.kind === 'same') expect(source[r.source]).toBe(current[r.current]);
      }),
    );
  });
});
