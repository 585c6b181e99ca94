import { describe, expect, it } from 'vitest';
import { changeLabel, lineDiff, wordDiff, wordStats } from '../../renderer/src/diff/compute';

describe('wordDiff', () => {
  it('marks the changed words and keeps the rest as written', () => {
    const parts = wordDiff('Hello world.\n', 'Hello brave new world.\n');
    expect(parts).toEqual([
      { kind: 'same', text: 'Hello ' },
      { kind: 'added', text: 'brave new ' },
      { kind: 'same', text: 'world.\n' },
    ]);
    expect(parts.map((p) => p.text).join('')).toBe('Hello brave new world.\n');
    expect(wordStats(parts)).toEqual({ added: 2, removed: 0 });
  });

  it('reads back both texts: same+removed is the old one, same+added the new one', () => {
    const before = '# Setup\n\nInstall the *cli* first.\n';
    const after = '# Setup\n\nInstall the **CLI** tool first, then log in.\n';
    const parts = wordDiff(before, after);
    expect(
      parts
        .filter((p) => p.kind !== 'added')
        .map((p) => p.text)
        .join(''),
    ).toBe(before);
    expect(
      parts
        .filter((p) => p.kind !== 'removed')
        .map((p) => p.text)
        .join(''),
    ).toBe(after);
    expect(parts.some((p) => p.kind === 'removed' && p.text.includes('cli'))).toBe(true);
  });

  it('handles empty sides (an added or deleted page)', () => {
    expect(wordDiff('', 'New page.')).toEqual([{ kind: 'added', text: 'New page.' }]);
    expect(wordDiff('Gone.', '')).toEqual([{ kind: 'removed', text: 'Gone.' }]);
    expect(wordDiff('', '')).toEqual([]);
  });
});

describe('lineDiff', () => {
  it('numbers lines on both sides', () => {
    expect(lineDiff('a\nb\nc\n', 'a\nB\nc\nd\n')).toEqual([
      { kind: 'same', text: 'a', oldNo: 1, newNo: 1 },
      { kind: 'removed', text: 'b', oldNo: 2 },
      { kind: 'added', text: 'B', newNo: 2 },
      { kind: 'same', text: 'c', oldNo: 3, newNo: 3 },
      { kind: 'added', text: 'd', newNo: 4 },
    ]);
  });
});

describe('changeLabel', () => {
  it('says what happened in words', () => {
    expect(changeLabel('page_edited')).toBe('Edited');
    expect(changeLabel('page_created')).toBe('Added');
    expect(changeLabel('page_deleted')).toBe('Deleted');
    expect(changeLabel('page_moved')).toBe('Moved');
    expect(changeLabel('page_renamed')).toBe('Renamed');
    expect(changeLabel('tag_created')).toBe('Tag created');
  });
});
