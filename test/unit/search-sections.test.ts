import { describe, expect, it } from 'vitest';
import { analyzeMarkdown } from '../../shared/markdown/analyze';
import { blockText, headingLines, inlineText, splitSections } from '../../renderer/src/search/sections';

/**
 * The offline search's section splitter (renderer/src/search/sections.ts): a
 * line scanner that must cut pages where the server's search index (the
 * markdown parser in shared/markdown/analyze.ts) cuts them, with the same
 * anchors, so an offline result jumps to the same heading as an online one.
 */

const PAGE = [
  'Intro text before any heading.',
  '',
  '# Getting *started*',
  'Install with `npm install folio`.',
  '',
  '## Install',
  '- first step',
  '- [x] second step with a [link](https://example.com)',
  '',
  '```sh',
  '# not a heading: inside a code fence',
  'npm start',
  '```',
  '',
  '## Install',
  '> A quote about **bold** things.',
  '',
  '| Name | Value |',
  '| --- | --- |',
  '| port | 8080 |',
  '',
  '{% hint style="info" %}',
  'Hints are GitBook blocks.',
  '{% endhint %}',
  '',
  '### Café & Crème ###',
  'Accents fold in anchors.',
].join('\n');

describe('splitSections', () => {
  it('cuts sections with the same anchors and titles as the server’s markdown analysis', () => {
    const ours = splitSections(PAGE).map((s) => ({ id: s.id, title: s.title, level: s.level }));
    const server = analyzeMarkdown(PAGE).sections.map((s) => ({ id: s.id, title: s.title, level: s.level }));
    expect(ours).toEqual(server);
    expect(ours.map((s) => s.id)).toEqual(['', 'getting-started', 'install', 'install-1', 'cafe-creme']);
  });

  it('keeps section bodies as plain text: no markup, code fence content kept, block tags dropped', () => {
    const sections = splitSections(PAGE);
    expect(sections[0]!.body).toBe('Intro text before any heading.');
    expect(sections[1]!.body).toBe('Install with npm install folio.');
    expect(sections[2]!.body).toBe(
      'first step\nsecond step with a link\n# not a heading: inside a code fence\nnpm start',
    );
    expect(sections[3]!.body).toBe('A quote about bold things.\nName Value\nport 8080\nHints are GitBook blocks.');
    expect(sections[4]!.body).toBe('Accents fold in anchors.');
  });

  it('has no intro section when the page starts with a heading, and none for an empty page', () => {
    expect(splitSections('# Only\ntext').map((s) => s.id)).toEqual(['only']);
    expect(splitSections('')).toEqual([]);
    expect(splitSections('\n\n')).toEqual([]);
  });

  it('finds heading lines (0-based) for jumping to them in the editor', () => {
    expect(headingLines(PAGE)).toEqual([
      { line: 2, id: 'getting-started', title: 'Getting started', level: 1 },
      { line: 5, id: 'install', title: 'Install', level: 2 },
      { line: 14, id: 'install-1', title: 'Install', level: 2 },
      { line: 25, id: 'cafe-creme', title: 'Café & Crème', level: 3 },
    ]);
  });

  it('does not take "#tag" or a closed fence’s content for headings', () => {
    expect(headingLines('#tag is not a heading\n~~~\n# in code\n~~~\n#\n# Real')).toEqual([
      { line: 4, id: 'section', title: '', level: 1 },
      { line: 5, id: 'real', title: 'Real', level: 1 },
    ]);
  });
});

describe('inlineText / blockText', () => {
  it('drops inline markup and keeps what a reader sees', () => {
    expect(inlineText('**bold** and _em_ and ~~gone~~ and `code` and ![alt](a.png) <b>tag</b>')).toBe(
      'bold and em and gone and code and alt tag',
    );
    expect(inlineText('snake_case_word stays')).toBe('snake_case_word stays');
    expect(inlineText('an escaped \\*star\\*')).toBe('an escaped *star*');
  });

  it('drops block markers, table delimiter rows and thematic breaks', () => {
    expect(blockText('1. numbered')).toBe('numbered');
    expect(blockText('> > nested quote')).toBe('nested quote');
    expect(blockText('|:---|---:|')).toBe('');
    expect(blockText('---')).toBe('');
    expect(blockText('{% tabs %}')).toBe('');
  });
});
