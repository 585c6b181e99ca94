import { describe, expect, it } from 'vitest';
import {
  checkMarkdownLimits,
  degradedAnalysis,
  degradedDocument,
  markdownToDocument,
  MARKDOWN_LIMITS,
  measureMarkdown,
} from '../../shared/markdown';
import { HOSTILE_PAGES, SLOW_BUT_WITHIN_LIMITS } from '../helpers/hostile-markdown';

/**
 * The pre-checks made before markdown is parsed (shared/markdown/limits.ts):
 * one linear pass that refuses the inputs micromark takes seconds on, and
 * lets ordinary pages through untouched.
 */

const HOSTILE = HOSTILE_PAGES;

const ORDINARY = [
  '# Title\n\nSome **bold** and *italic* text with a [link](./other.md) and `code`.\n',
  '- a\n  - b\n    - c\n      1. d\n         > quoted [ref][x]\n\n[x]: https://example.com\n',
  '| a | b |\n| --- | :-: |\n| 1 | 2 |\n',
  '```json\n{"a": [[1, 2], [3, [4]]]}\n```\n\n***\n\n___\n',
  '> [!NOTE]\n> A hint with ![an image](/files/f1) and [[wiki]] brackets.\n',
];

describe('measureMarkdown', () => {
  it('counts open brackets within a paragraph; a blank line closes them, escapes do not open', () => {
    expect(measureMarkdown('[a [b [c]]]').bracketDepth).toBe(3);
    expect(measureMarkdown('[[[\n[[x]]\n]]]').bracketDepth).toBe(5);
    expect(measureMarkdown('[[[\n\n[[x]]').bracketDepth).toBe(3);
    expect(measureMarkdown('\\[\\[\\[x').bracketDepth).toBe(0);
    expect(measureMarkdown(']]]][[').bracketDepth).toBe(2);
    expect(measureMarkdown(HOSTILE.brackets).bracketDepth).toBe(30_000);
  });

  it('counts list and quote containers on a line, with nesting by indentation', () => {
    expect(measureMarkdown('- a\n  - b\n    - c\n').containerDepth).toBe(3);
    expect(measureMarkdown('> > > x').containerDepth).toBe(3);
    expect(measureMarkdown('>>>>> x').containerDepth).toBe(5);
    expect(measureMarkdown('1. a\n2) b\n   - c').containerDepth).toBe(2);
    expect(measureMarkdown('plain\n    indented code\n').containerDepth).toBe(0);
    expect(measureMarkdown('-not a marker\n*emphasis*').containerDepth).toBe(0);
    let indented = '';
    for (let i = 0; i < 600; i++) indented += `${'  '.repeat(i)}- item\n`;
    expect(measureMarkdown(indented).containerDepth).toBe(600);
    expect(measureMarkdown(HOSTILE.nestedList).containerDepth).toBe(600);
  });

  it('measures emphasis delimiter runs', () => {
    expect(measureMarkdown('**bold** and _it_').delimiterRun).toBe(2);
    expect(measureMarkdown(`${'*'.repeat(500)}x${'*'.repeat(500)}`).delimiterRun).toBe(500);
    expect(measureMarkdown('\\*\\*\\*').delimiterRun).toBe(0); // escaped: literal text
  });

  it('counts the cells of table delimiter rows only', () => {
    expect(measureMarkdown('| a | b | c |\n| --- | :-: | --: |\n| 1 | 2 | 3 |').tableColumns).toBe(3);
    expect(measureMarkdown('a | b\n-|-\n').tableColumns).toBe(2);
    expect(measureMarkdown('> | a |\n> |---|\n').tableColumns).toBe(1);
    expect(measureMarkdown('---\n\n| not | a | table |\n').tableColumns).toBe(0);
    expect(measureMarkdown(HOSTILE.wideTable).tableColumns).toBe(2_000);
  });
});

describe('checkMarkdownLimits', () => {
  it('lets ordinary pages through (and slow pages of an ordinary shape: the time budget is for those)', () => {
    for (const page of ORDINARY) expect(checkMarkdownLimits(page), page).toBeUndefined();
    expect(checkMarkdownLimits('word '.repeat(50_000))).toBeUndefined();
    expect(checkMarkdownLimits(SLOW_BUT_WITHIN_LIMITS)).toBeUndefined();
  });

  it('refuses the hostile pages, each for its reason', () => {
    expect(checkMarkdownLimits(HOSTILE.brackets)?.reason).toBe('nesting');
    expect(checkMarkdownLimits(HOSTILE.nestedList)?.reason).toBe('nesting');
    expect(checkMarkdownLimits(HOSTILE.wideTable)?.reason).toBe('table-columns');
    expect(checkMarkdownLimits(`${'*'.repeat(1_000)}x${'*'.repeat(1_000)}`)?.reason).toBe('nesting');
  });

  it('refuses text over the size limit, and applies limits given to it', () => {
    const big = 'a'.repeat(MARKDOWN_LIMITS.maxLength + 1);
    expect(checkMarkdownLimits(big)).toEqual({ reason: 'size', message: expect.stringContaining('characters') });
    expect(checkMarkdownLimits('a'.repeat(MARKDOWN_LIMITS.maxLength))).toBeUndefined();
    const limits = { maxLength: 100, maxDepth: 2, maxTableColumns: 2 };
    expect(checkMarkdownLimits('[[[x]]]', limits)?.reason).toBe('nesting');
    expect(checkMarkdownLimits('[[x]]', limits)).toBeUndefined();
    expect(checkMarkdownLimits('|a|b|c|\n|-|-|-|', limits)?.reason).toBe('table-columns');
    expect(checkMarkdownLimits('x'.repeat(101), limits)?.reason).toBe('size');
  });

  it('measures many ordinary paragraphs like one of them: nothing accumulates across paragraphs', () => {
    const unit = `${'['.repeat(50)}x${']'.repeat(50)}\n\n| a | b |\n| - | - |\n${'- '.repeat(20)}x\n`;
    const one = measureMarkdown(unit);
    expect(measureMarkdown(unit.repeat(1_000))).toEqual(one);
  });
});

describe('degraded forms', () => {
  it('a degraded document is the text as one code block, marked with the reason, valid for GitBook', () => {
    const doc = degradedDocument('line [1\n\nline 2\n', { reason: 'nesting', message: 'too deep' });
    expect(doc.data).toEqual({ degraded: { reason: 'nesting', message: 'too deep' } });
    expect(doc.nodes).toHaveLength(1);
    expect(doc.nodes[0]).toMatchObject({ type: 'code' });
    const lines = doc.nodes[0]!.nodes!.map(
      (l) => (l as { nodes: { leaves: { text: string }[] }[] }).nodes[0]!.leaves[0]!.text,
    );
    expect(lines).toEqual(['line [1', '', 'line 2']);
  });

  it('a degraded analysis has no links and the raw text as one section (still searchable)', () => {
    expect(degradedAnalysis('find [me')).toEqual({
      links: [],
      sections: [{ id: '', title: '', level: 0, body: 'find [me' }],
    });
    expect(degradedAnalysis('  \n')).toEqual({ links: [], sections: [] });
  });

  it('ordinary pages convert exactly as before (nothing degraded)', () => {
    for (const page of ORDINARY) expect(markdownToDocument(page).data).toEqual({});
  });
});
