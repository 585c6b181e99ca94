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

/** Headings as the server's search index sees them (shared/markdown analyze.ts: the full parser). */
const serverHeadings = (markdown: string) =>
  analyzeMarkdown(markdown)
    .sections.filter((s) => s.level > 0)
    .map((s) => ({ id: s.id, title: s.title, level: s.level }));
const ourHeadings = (markdown: string) =>
  splitSections(markdown)
    .filter((s) => s.level > 0)
    .map((s) => ({ id: s.id, title: s.title, level: s.level }));

describe('setext headings', () => {
  const PAGE_SETEXT = [
    'Intro line.',
    '',
    'Getting started',
    '===============',
    'Install it first.',
    '',
    'Two lines of',
    '  one *heading*',
    '---',
    'Body under it.',
    '',
    'After a blank line a rule:',
    '',
    '---',
    '',
    '- a list item',
    '---',
    '',
    '> a quote',
    '---',
    '',
    '```md',
    'Not a heading',
    '=============',
    '```',
    '',
    'Getting started',
    '-',
  ].join('\n');

  it('reads `===` as level 1 and `---` as level 2, with the server’s anchors and titles', () => {
    expect(ourHeadings(PAGE_SETEXT)).toEqual(serverHeadings(PAGE_SETEXT));
    expect(ourHeadings(PAGE_SETEXT)).toEqual([
      { id: 'getting-started', title: 'Getting started', level: 1 },
      { id: 'two-lines-of-one-heading', title: 'Two lines of\none heading', level: 2 },
      { id: 'getting-started-1', title: 'Getting started', level: 2 },
    ]);
  });

  it('keeps rules, code and the lines above a rule as body', () => {
    const sections = splitSections(PAGE_SETEXT);
    expect(sections[0]).toMatchObject({ id: '', body: 'Intro line.' });
    expect(sections[1]).toMatchObject({ id: 'getting-started', body: 'Install it first.' });
    expect(sections[2]!.body).toBe(
      'Body under it.\nAfter a blank line a rule:\na list item\na quote\nNot a heading\n=============',
    );
  });

  it('finds setext heading lines at their first text line', () => {
    expect(headingLines(PAGE_SETEXT)).toEqual([
      { line: 2, id: 'getting-started', title: 'Getting started', level: 1 },
      { line: 6, id: 'two-lines-of-one-heading', title: 'Two lines of\none heading', level: 2 },
      { line: 26, id: 'getting-started-1', title: 'Getting started', level: 2 },
    ]);
  });

  it.each([
    ['a rule after a blank line', 'Text\n\n---\n'],
    ['a rule after a list', '- item\n---\n'],
    ['a rule after a list with a lazy line', '- item\nlazy line\n---\n'],
    ['a lazy `===` in a quote', '> quoted\n===\n'],
    ['an underline inside a fence', '```\nTitle\n---\n```\n'],
    ['an underline inside a tilde fence after a paragraph', 'Text\n~~~\nTitle\n===\n~~~\n'],
    ['an underline inside an HTML block', '<details>\n<summary>More</summary>\nTitle\n---\n</details>\n'],
    ['an underline after indented code', '    code\n---\n'],
    ['an indented underline (paragraph text)', 'Title\n    ---\n'],
    ['`***` (a rule, never an underline)', 'Title\n***\n'],
    ['`= =` (paragraph text)', 'Title\n= =\n'],
    ['a table row', '| a | b |\n| - | - |\n| c | d |\n---\n'],
    ['a link definition alone', '[ref]: https://example.com\n===\n'],
  ])('is not a heading: %s', (_, markdown) => {
    expect(serverHeadings(markdown)).toEqual([]);
    expect(ourHeadings(markdown)).toEqual([]);
  });

  it.each([
    ['after a list and a blank line', '- item\n\nTitle\n---\n'],
    ['under a quote and a blank line', '> quoted\n\nTitle\n===\n'],
    ['inside a details block after a blank line', '<details>\n<summary>More</summary>\n\nTitle\n---\n\n</details>\n'],
    ['after an ATX heading', '# First\nSecond\n---\n'],
    ['with a pipe in it (one-column tables need a pipe or a colon in the delimiter)', '| a |\n---\n'],
    ['after link definitions', '[ref]: https://example.com\nUses [ref]\n===\n'],
    ['of a one-character underline', 'Title\n-\n'],
    ['with trailing spaces and a hard break', 'Line one\\\nline two  \n===   \n'],
    ['after an empty list item (an underline, not a second item)', 'Text\n-\n---\n'],
    ['after a paragraph that a non-1 ordered item cannot interrupt', 'Text\n2. not a list\n---\n'],
    ['with CRLF line ends', 'Title\r\n---\r\nBody\r\n'],
  ])('is a heading: %s', (_, markdown) => {
    const server = serverHeadings(markdown);
    expect(server.length).toBeGreaterThan(0);
    expect(ourHeadings(markdown)).toEqual(server);
  });

  it('gives headings nested in lists and quotes their anchor, as the server does', () => {
    const markdown = '- # Setup\n\n> Setup\n> ---\n\nSetup\n=====\n';
    expect(ourHeadings(markdown)).toEqual(serverHeadings(markdown));
    expect(ourHeadings(markdown)).toEqual([{ id: 'setup-2', title: 'Setup', level: 1 }]);
  });

  it('cuts generated pages where the server cuts them, with the same anchors', () => {
    // Lines that make and break setext headings, mixed at random (a fixed seed: the same pages each run).
    const vocabulary = [
      '',
      '',
      'Title',
      'Two words',
      '  indented text',
      '    four spaces',
      '\tTab',
      '---',
      '===',
      '-',
      '=',
      '***',
      '- - -',
      '- item',
      '* star',
      '1. one',
      '2. two',
      '1)',
      '  - nested',
      '  ---',
      '   ===',
      '> quote',
      '>',
      '> ---',
      '> # In a quote',
      '# Atx',
      '## Atx two',
      '```',
      '~~~',
      '```js',
      '| a | b |',
      '| - | - |',
      'a | b',
      '--- | ---',
      ':-',
      '|---|',
      '<div>',
      '</div>',
      '<img src="x">',
      '<b>',
      '<!-- c',
      '-->',
      '<details>',
      '<summary>S</summary>',
      '[x]: /url',
      '[^1]: note',
      '{% hint style="info" %}',
      '{% endhint %}',
      'Text with *em*',
      '**bold**',
      'a\\',
      'b  ',
      '- [ ] task',
      '<pre>',
      '</pre>',
      '  Title',
      '  ===',
      '  # Nested',
      '> Title',
      '> ===',
      '-\tTabbed item',
      '   - three',
      '10. ten',
      '    continued',
    ];
    let seed = 2024;
    const random = () => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) >>> 0;
      let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const anchors = (headings: Array<{ id: string; level: number }>) => headings.map((h) => `${h.level} ${h.id}`);
    const differ: string[] = [];
    for (let n = 0; n < 800; n++) {
      const lines = Array.from(
        { length: 2 + Math.floor(random() * 9) },
        () => vocabulary[Math.floor(random() * vocabulary.length)],
      );
      const markdown = lines.join('\n');
      if (anchors(ourHeadings(markdown)).join() !== anchors(serverHeadings(markdown)).join()) differ.push(markdown);
    }
    expect(differ).toEqual([]);
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
