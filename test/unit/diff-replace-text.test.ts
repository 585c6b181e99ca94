import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  applyTextEdits,
  replaceText,
  textEdits,
  WORD_DIFF_MAX_CHARS,
  type TextEdit,
} from '../../shared/doc/replace-text';
import { decodeEdits, encodeEdits, wordEdits } from '../../shared/doc/word-edits';
import { editedPage, largePage, pageBlocks, seeded } from '../helpers/large-markdown';

/** Restoring text as minimal word edits: exact result, concurrent edits kept, one undo step. */
function textOf(initial: string): { doc: Y.Doc; text: Y.Text } {
  const doc = new Y.Doc();
  const text = doc.getText('t');
  text.insert(0, initial);
  return { doc, text };
}

describe('textEdits', () => {
  it('touches only the words that differ', () => {
    const edits = textEdits('The quick brown fox jumps.', 'The slow brown fox leaps.');
    expect(edits).toEqual([
      { at: 4, delete: 5 },
      { at: 4, insert: 'slow' },
      { at: 19, delete: 5 },
      { at: 19, insert: 'leaps' },
    ]);
    expect(textEdits('same', 'same')).toEqual([]);
  });
});

describe('replaceText', () => {
  it('makes the text read the target, emoji and new lines included', () => {
    const cases: [string, string][] = [
      ['Hello world.\n', 'Hello brave new world.\n'],
      ['# Title\n\nA 😀 line.\n- one\n- two\n', '# Title\n\nA 🎉 line!\n- two\n- three\n'],
      ['', 'From nothing.'],
      ['To nothing.', ''],
    ];
    for (const [from, to] of cases) {
      const { text } = textOf(from);
      expect(replaceText(text, to)).toBe(true);
      expect(text.toString()).toBe(to);
    }
    expect(replaceText(textOf('same').text, 'same')).toBe(false);
  });

  it("keeps another replica's concurrent edit in a part the restore leaves alone", () => {
    const a = textOf('First paragraph.\n\nSecond paragraph.\n');
    const b = new Y.Doc();
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a.doc));
    // Replica B types into the second paragraph while A restores the first one.
    b.getText('t').insert('First paragraph.\n\nSecond'.length, ' (typed)');
    replaceText(a.text, 'Restored first paragraph.\n\nSecond paragraph.\n');
    Y.applyUpdate(a.doc, Y.encodeStateAsUpdate(b));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a.doc));
    expect(a.text.toString()).toBe('Restored first paragraph.\n\nSecond (typed) paragraph.\n');
    expect(b.getText('t').toString()).toBe(a.text.toString());
  });

  it('is one transaction, so an UndoManager takes it back in one step', () => {
    const { doc, text } = textOf('alpha beta gamma delta');
    const undo = new Y.UndoManager(text);
    let transactions = 0;
    doc.on('afterTransaction', () => transactions++);
    replaceText(text, 'alpha BETA gamma DELTA epsilon');
    expect(transactions).toBe(1);
    undo.undo();
    expect(text.toString()).toBe('alpha beta gamma delta');
  });
});

const isLow = (s: string, i: number) => /[\uDC00-\uDFFF]/.test(s.charAt(i));

/** Applies edits to a plain string, as Y.Text would; fails on an edit that splits an emoji (a surrogate pair). */
function applied(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of edits) {
    const end = 'insert' in e ? e.at : e.at + e.delete;
    if (isLow(out, e.at) || isLow(out, end)) throw new Error(`edit at ${e.at} splits a surrogate pair`);
    out = 'insert' in e ? out.slice(0, e.at) + e.insert + out.slice(e.at) : out.slice(0, e.at) + out.slice(end);
    if ('insert' in e && (isLow(e.insert, 0) || /[\uD800-\uDBFF]$/.test(e.insert))) throw new Error('lone surrogate');
  }
  return out;
}

/** A text edited at random places (seeded): words replaced, lines dropped and added, emoji included. */
function mutate(text: string, seed: number, changes: number): string {
  const rand = seeded(seed);
  const lines = text.split('\n');
  for (let i = 0; i < changes; i++) {
    const at = Math.floor(rand() * lines.length);
    const r = rand();
    if (r < 0.25) lines.splice(at, 1);
    else if (r < 0.5) lines.splice(at, 0, `new line ${i} 😀 with words`);
    else {
      const words = lines[at]!.split(' ');
      words[Math.floor(rand() * words.length)] = r < 0.75 ? `w${i}` : '🎉';
      lines[at] = words.join(' ');
    }
  }
  return lines.join('\n');
}

describe('wordEdits (line first, then words)', () => {
  it('turns one text into the other exactly, on random edits of big and small texts', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const base = largePage(seed, seed % 4 === 0 ? 40_000 : 2_000);
      const next = mutate(base, seed, 1 + (seed % 15));
      const edits = wordEdits(base, next);
      expect(applied(base, edits)).toBe(next);
      const { text } = textOf(base);
      text.doc!.transact(() => applyTextEdits(text, edits, next));
      expect(text.toString()).toBe(next);
    }
  });

  it('turns any text into any other exactly (random short texts, CR LF, emoji, no final new line)', () => {
    const rand = seeded(99);
    const alphabet = ['a', 'bc', ' ', '\n', '\r\n', '😀', '#', '\n\n'];
    const tokens = () => Array.from({ length: Math.floor(rand() * 40) }, () => alphabet[Math.floor(rand() * 8)]!);
    for (let i = 0; i < 2_000; i++) {
      const from = tokens();
      const base = from.join('');
      const next = (rand() < 0.5 ? tokens() : [...from.slice(0, Math.floor(rand() * from.length)), ...tokens()]).join(
        '',
      );
      const edits = wordEdits(base, next);
      expect(applied(base, edits)).toBe(next);
      for (const e of edits) expect('insert' in e ? e.insert.length : e.delete).toBeGreaterThan(0);
    }
  });

  it('is exact whatever the deadline leaves: a region past it becomes one span', () => {
    const base = largePage(3, 50_000);
    const next = editedPage(3, 50_000, [], { extraChars: 5_000 });
    const late = wordEdits(base, next, Date.now() - 1);
    expect(applied(base, late)).toBe(next);
    expect(late.length).toBeLessThanOrEqual(2);
    expect(wordEdits(base, next).length).toBeGreaterThan(10);
  });

  it('touches only the changed words of one paragraph in a 200 kB page', () => {
    const base = largePage(5, 200_000);
    const at = base.indexOf('\n\n', 100_000) + 2;
    const next = `${base.slice(0, at)}Changed ${base.slice(at)}`;
    expect(wordEdits(base, next)).toEqual([{ at, insert: 'Changed ' }]);
  });

  it('does not shred an insert on every common word of a short paragraph', () => {
    const base = 'Intro.\n\nThe old line of the text.\n\nOutro.\n';
    const long = largePage(11, 20_000);
    const next = `Intro.\n\nThe new line of the text. ${long.replace(/\n/g, ' ')}\n\nOutro.\n`;
    const edits = wordEdits(base, next);
    expect(applied(base, edits)).toBe(next);
    expect(edits.length).toBeLessThanOrEqual(4);
  });

  it('keeps a concurrent edit in a paragraph the change leaves alone, in a big page', () => {
    const base = largePage(8, 100_000);
    const next = editedPage(8, 100_000);
    const kept = pageBlocks(8, 100_000)
      .slice(60)
      .find((b) => !b.startsWith('#') && !b.startsWith('`') && next.includes(`\n${b}\n`))!;
    const a = textOf(base);
    const b = new Y.Doc();
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a.doc));
    b.getText('t').insert(base.indexOf(kept), 'TYPED ');
    a.doc.transact(() => applyTextEdits(a.text, wordEdits(base, next), next));
    Y.applyUpdate(a.doc, Y.encodeStateAsUpdate(b));
    const at = next.indexOf(kept);
    expect(a.text.toString()).toBe(`${next.slice(0, at)}TYPED ${next.slice(at)}`);
  });

  it('sends edits between threads as numbers, the inserted text taken from the target', () => {
    const base = 'one 😀 two three\nfour\n';
    const next = 'one 🎉 two 3\nfour five\n';
    const edits = wordEdits(base, next);
    expect(decodeEdits(encodeEdits(edits), next)).toEqual(edits);
    expect(applied(base, edits)).toBe(next);
  });
});

describe('textEdits', () => {
  it('replaces a differing part over the size threshold as one span, without diffing', () => {
    const half = WORD_DIFF_MAX_CHARS / 2 + 10;
    const base = `keep\n${'a b '.repeat(half / 4)}\nend\n`;
    const next = `keep\n${'c d '.repeat(half / 4)}\nend\n`;
    const edits = textEdits(base, next);
    // One delete and one insert of the whole differing middle (a word diff would give ~half a million edits).
    expect(edits.map((e) => ('insert' in e ? ['insert', e.at, e.insert.length] : ['delete', e.at, e.delete]))).toEqual([
      ['delete', 5, base.length - 11],
      ['insert', 5, next.length - 11],
    ]);
    expect(applied(base, edits) === next).toBe(true);
  });

  it('gives one span when a text only gains or loses', () => {
    expect(textEdits('', 'new page\n')).toEqual([{ at: 0, insert: 'new page\n' }]);
    expect(textEdits('a b c', 'a c')).toEqual([{ at: 2, delete: 2 }]);
  });
});
