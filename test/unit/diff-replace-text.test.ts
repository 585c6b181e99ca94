import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { replaceText, textEdits } from '../../shared/doc/replace-text';

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
