import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitBlocks } from '../../shared/markdown/block-split';
import {
  applyBlockRevert,
  planBlockRevert,
  type PageVersion,
} from '../../sync-server/api/change-request-content/revert-blocks';
import { BatchError } from '../../sync-server/api/change-request-content/apply-error';

/**
 * revert_page's `block` form on markdown text: which blocks go back and how,
 * what stays byte for byte, and how a plan is carried onto a text that
 * changed after it was made (or refused when the change is in its way).
 */

const version = (text: string): PageVersion => ({ text, blocks: splitBlocks(text) });
const keyOf = (v: PageVersion, text: string) => {
  const block = v.blocks.find((b) => v.text.slice(b.start, b.end) === text);
  if (!block) throw new Error(`no block "${text}"`);
  return block.key;
};
function revert(
  source: string,
  current: string,
  named: (src: PageVersion, cur: PageVersion) => string[],
  live = current,
) {
  const src = version(source);
  const cur = version(current);
  const plan = planBlockRevert(cur, src, named(src, cur), 'body.changes[0]', 'page1');
  return applyBlockRevert(plan, live);
}

const SOURCE = '# Title\n\nOne.\n\nTwo.\n\nThree.\n';

describe('planBlockRevert + applyBlockRevert', () => {
  it('a modified block gets its source text back; the other edits stay', () => {
    const current = '# Title\n\nOne, edited.\n\nTwo, edited.\n\nThree, edited.\n';
    expect(revert(SOURCE, current, (_, c) => [keyOf(c, 'Two, edited.')])).toEqual({
      text: '# Title\n\nOne, edited.\n\nTwo.\n\nThree, edited.\n',
    });
  });

  it("the source block's key names it too", () => {
    const current = '# Title\n\nOne.\n\nTwo, edited.\n\nThree.\n';
    expect(revert(SOURCE, current, (s) => [keyOf(s, 'Two.')])).toEqual({ text: SOURCE });
  });

  it('an added block is removed (with the blank line before it), wherever it is', () => {
    for (const current of [
      '# Title\n\nOne.\n\nAdded.\n\nTwo.\n\nThree.\n',
      'Added.\n\n# Title\n\nOne.\n\nTwo.\n\nThree.\n',
      '# Title\n\nOne.\n\nTwo.\n\nThree.\n\nAdded.\n',
    ])
      expect(revert(SOURCE, current, (_, c) => [keyOf(c, 'Added.')])).toEqual({ text: SOURCE });
  });

  it('a deleted block is re-inserted where it was, with its source spacing', () => {
    for (const current of ['# Title\n\nOne.\n\nThree.\n', '# Title\n\nOne.\n\nTwo.\n', 'One.\n\nTwo.\n\nThree.\n'])
      for (const gone of ['Two.', 'Three.', '# Title'])
        if (!current.includes(gone)) expect(revert(SOURCE, current, (s) => [keyOf(s, gone)])).toEqual({ text: SOURCE });
  });

  it('a deleted block next to an edited one: the deleted one comes back, the edit stays', () => {
    const current = '# Title\n\nOne.\n\nThree, edited.\n';
    expect(revert(SOURCE, current, (s) => [keyOf(s, 'Two.')])).toEqual({
      text: '# Title\n\nOne.\n\nTwo.\n\nThree, edited.\n',
    });
  });

  it('a moved block goes back', () => {
    const current = '# Title\n\nTwo.\n\nThree.\n\nOne.\n';
    expect(revert(SOURCE, current, (_, c) => [keyOf(c, 'One.')])).toEqual({ text: SOURCE });
  });

  it('several keys at once, and an unchanged block is left alone', () => {
    const current = '# Title\n\nNew first.\n\nOne.\n\nTwo!\n';
    const result = revert(SOURCE, current, (s, c) => [keyOf(c, 'New first.'), keyOf(s, 'Three.'), keyOf(c, 'One.')]);
    expect(result).toEqual({ text: '# Title\n\nOne.\n\nTwo!\n\nThree.\n' });
  });

  it('reverting every block of a page added since the source empties it; into an empty page it re-inserts', () => {
    expect(revert('', 'A.\n\nB.\n', (_, c) => [keyOf(c, 'A.'), keyOf(c, 'B.')])).toEqual({ text: '\n' });
    expect(revert('A.\n\nB.\n', '', (s) => [keyOf(s, 'B.'), keyOf(s, 'A.')])).toEqual({ text: 'A.\n\nB.\n' });
  });

  it('a key in neither version is a 400 naming it', () => {
    const src = version(SOURCE);
    const call = () => planBlockRevert(src, src, [keyOf(src, 'One.'), 'bNOPE'], 'body.changes[3]', 'page1');
    expect(call).toThrow(BatchError);
    expect(call).toThrow('body.changes[3].block[1]: no block with key "bNOPE" in page "page1" (current or source)');
  });

  it('carries the plan onto a text changed since, in other blocks', () => {
    const current = '# Title\n\nOne.\n\nTwo!\n\nThree.\n';
    const live = '# Title\n\nOne, typed.\n\nTwo!\n\nThree, typed too.\n';
    expect(revert(SOURCE, current, (_, c) => [keyOf(c, 'Two!')], live)).toEqual({
      text: '# Title\n\nOne, typed.\n\nTwo.\n\nThree, typed too.\n',
    });
  });

  it('typing at the edge of a reverted block is kept outside it', () => {
    const current = '# Title\n\nOne.\n\nTwo!\n\nThree.\n';
    // Typed at the end of "One." (the start of the zone) and at the start of "Three." (its end).
    const live = '# Title\n\nOne.!!\n\nTwo!\n\n>>Three.\n';
    expect(revert(SOURCE, current, (_, c) => [keyOf(c, 'Two!')], live)).toEqual({
      text: '# Title\n\nOne.!!\n\nTwo.\n\n>>Three.\n',
    });
  });

  it('a change inside a reverted block since the plan is a conflict naming the key', () => {
    const current = '# Title\n\nOne.\n\nTwo!\n\nThree.\n';
    const key = keyOf(version(current), 'Two!');
    expect(revert(SOURCE, current, () => [key], '# Title\n\nOne.\n\nTwo! more\n\nThree.\n')).toEqual({
      conflicts: [key],
    });
  });

  it('leaves everything outside the named blocks byte for byte (property)', () => {
    const para = fc.stringMatching(/^[a-z]{1,6}[.!]$/);
    fc.assert(
      fc.property(fc.array(para, { maxLength: 6 }), fc.array(para, { maxLength: 6 }), (s, c) => {
        const source = s.join('\n\n') + '\n';
        const current = c.join('\n\n') + '\n';
        const cur = version(current);
        const src = version(source);
        // Reverting every block of either version gives back the source's blocks.
        const all = [...cur.blocks, ...src.blocks].map((b) => b.key);
        const plan = planBlockRevert(cur, src, all, 'body.changes[0]', 'p');
        const out = applyBlockRevert(plan, current);
        expect('text' in out && splitBlocks(out.text).map((b) => b.hash)).toEqual(src.blocks.map((b) => b.hash));
        // Reverting nothing changes nothing.
        expect(applyBlockRevert(planBlockRevert(cur, src, [], 'x', 'p'), current)).toEqual({ text: current });
      }),
    );
  });
});
