import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blockHash, blockKeyOf } from '../../shared/markdown/block-keys';
import { splitBlocks } from '../../shared/markdown/block-split';
import { base64url, sha256 } from '../../shared/markdown/sha256';
import { markdownToDocument } from '../../shared/markdown/to-document';
import { assertMatchesGitBook } from '../helpers/gitbook-schema';

/** Block keys of markdown pages: content-derived, stable across versions, unique within one, the same in documents. */

const keysOf = (md: string) => splitBlocks(md).map((b) => b.key);

describe('sha256 (shared, isomorphic)', () => {
  it.each(['', 'abc', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), 'é😀 mixed\n'.repeat(200)])(
    'equals node:crypto for %#',
    (text) => {
      expect(base64url(sha256(text))).toBe(createHash('sha256').update(text).digest('base64url'));
    },
  );
});

describe('splitBlocks', () => {
  it('splits at top-level blocks, with their exact source spans', () => {
    const md = '# Title\n\nA paragraph\nover two lines.\n\n- a\n\n- b\n\n```js\nx\n\ny\n```\n';
    const spans = splitBlocks(md).map((b) => md.slice(b.start, b.end));
    expect(spans).toEqual(['# Title', 'A paragraph\nover two lines.', '- a\n\n- b', '```js\nx\n\ny\n```']);
  });

  it('keys are `b` + 12 base64url characters of the SHA-256 of the normalized block', () => {
    const [key] = keysOf('Hello  \r\nworld   \n');
    expect(key).toMatch(/^b[A-Za-z0-9_-]{12}$/);
    expect(key).toBe(`b${createHash('sha256').update('Hello\nworld').digest('base64url').slice(0, 12)}`);
    expect(blockHash('  Hello\nworld\n\n')).toBe(key);
  });

  it('an unchanged block keeps its key when other blocks change, move or are added', () => {
    const before = keysOf('One.\n\nTwo.\n\nThree.\n');
    const after = keysOf('Zero.\n\nThree.\n\nOne, edited.\n\nTwo.\n');
    expect(after).toContain(before[1]);
    expect(after).toContain(before[2]);
    expect(after).not.toContain(before[0]);
  });

  it('repeated blocks get distinct keys: -2, -3… in order', () => {
    const [a, b, a2, a3] = keysOf('Same.\n\nOther.\n\nSame.\n\nSame.\n');
    expect(a2).toBe(`${a}-2`);
    expect(a3).toBe(`${a}-3`);
    expect(new Set([a, b, a2, a3]).size).toBe(4);
  });

  it('markdown too deeply nested to parse is split at blank lines', () => {
    const deep = `${'>'.repeat(8000)} deep\n\nAfter.\n`;
    const blocks = splitBlocks(deep);
    expect(blocks.map((b) => deep.slice(b.start, b.end))).toEqual([`${'>'.repeat(8000)} deep`, 'After.\n']);
  });

  it('blockKeyOf reads `<key>.n` (a later node of the same markdown block) as the block', () => {
    expect(blockKeyOf('bAAAAAAAAAAAA.2')).toBe('bAAAAAAAAAAAA');
    expect(blockKeyOf('bAAAAAAAAAAAA-2')).toBe('bAAAAAAAAAAAA-2');
  });
});

describe('markdownToDocument({ blockKeys: true })', () => {
  const md = '# Title\n\nSame.\n\n- item\n\nSame.\n\n| a |\n|---|\n| 1 |\n\n[^1]: one\n\n    two\n';

  it('keys every top-level node with the key of its markdown block, valid for GitBook', () => {
    const doc = markdownToDocument(md, { blockKeys: true });
    assertMatchesGitBook('getPageDocumentInRevisionById', 200, doc);
    const keys = splitBlocks(md).map((b) => b.key);
    expect(doc.nodes.map((n) => n.key)).toEqual([...keys, `${keys[5]}.2`]);
    expect(new Set(doc.nodes.map((n) => n.key)).size).toBe(doc.nodes.length);
    // Only top-level blocks: nested nodes have none.
    expect(JSON.stringify(doc.nodes[2]!.nodes)).not.toContain('"key"');
  });

  it('gives no keys unless asked (documents built to be converted back)', () => {
    expect(JSON.stringify(markdownToDocument(md))).not.toContain('"key"');
  });

  it('keys the plain paragraphs of a page too deeply nested to parse', () => {
    const deep = `${'>'.repeat(8000)} deep\n\nAfter.\n`;
    const doc = markdownToDocument(deep, { blockKeys: true });
    expect(doc.nodes.map((n) => n.key)).toEqual(keysOf(deep));
  });
});
