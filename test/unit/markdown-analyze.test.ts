import { describe, expect, it } from 'vitest';
import { AnchorSlugger, analyzeMarkdown, slugify, uniqueSlug } from '../../shared/markdown';

/** Links and sections of page markdown, and the slug rules behind anchors and page paths. */

describe('analyzeMarkdown links', () => {
  it('classifies page, file, anchor and URL links with their text and position', () => {
    const md = [
      'See [the intro](../intro.md#setup), [top](#top) and [GitBook](https://gitbook.com).',
      '',
      '![Diagram](.gitbook/assets/diagram%20v2.png) [PDF](/files/f123) [by id](/pages/abc123)',
      '',
      '[mail](mailto:a@b.test) [ref link][docs] ![upload](./shot.jpg)',
      '',
      '[docs]: /pages/guides/start.md',
    ].join('\n');
    const { links } = analyzeMarkdown(md);
    expect(links.map(({ kind, target, anchor, text, image }) => ({ kind, target, anchor, text, image }))).toEqual([
      { kind: 'page', target: '../intro.md', anchor: 'setup', text: 'the intro', image: false },
      { kind: 'anchor', target: '', anchor: 'top', text: 'top', image: false },
      { kind: 'url', target: 'https://gitbook.com', anchor: undefined, text: 'GitBook', image: false },
      { kind: 'file', target: '.gitbook/assets/diagram v2.png', anchor: undefined, text: 'Diagram', image: true },
      { kind: 'file', target: '/files/f123', anchor: undefined, text: 'PDF', image: false },
      { kind: 'page', target: '/pages/abc123', anchor: undefined, text: 'by id', image: false },
      { kind: 'url', target: 'mailto:a@b.test', anchor: undefined, text: 'mail', image: false },
      { kind: 'page', target: '/pages/guides/start.md', anchor: undefined, text: 'ref link', image: false },
      { kind: 'file', target: './shot.jpg', anchor: undefined, text: 'upload', image: true },
    ]);
    expect(links[0]!.position).toEqual({ start: 4, end: 34, line: 1 });
    expect(md.slice(links[0]!.position.start, links[0]!.position.end)).toBe('[the intro](../intro.md#setup)');
    expect(links[3]!.position.line).toBe(3);
  });

  it('finds links nested in lists, quotes, tables and emphasis, and ignores code', () => {
    const md =
      '- **[a](a.md)**\n\n> [b](b.md)\n\n| x |\n|---|\n| [c](c.md) |\n\n`[no](no.md)`\n\n```\n[no](no.md)\n```\n';
    expect(analyzeMarkdown(md).links.map((l) => l.target)).toEqual(['a.md', 'b.md', 'c.md']);
  });
});

describe('analyzeMarkdown sections', () => {
  it('splits the page at headings, with unique anchors and plain-text bodies', () => {
    const md =
      'Intro **text**.\n\n# Install\n\nRun `npm i`.\n\n- one\n- two\n\n## Install\n\nAgain.\n\n### Café & Crème!\n\n## 日本語\n';
    expect(analyzeMarkdown(md).sections).toEqual([
      { id: '', title: '', level: 0, body: 'Intro text.' },
      { id: 'install', title: 'Install', level: 1, body: 'Run npm i.\none\ntwo' },
      { id: 'install-1', title: 'Install', level: 2, body: 'Again.' },
      { id: 'cafe-creme', title: 'Café & Crème!', level: 3, body: '' },
      { id: 'section', title: '日本語', level: 2, body: '' },
    ]);
  });

  it('has no intro section when the page starts with a heading, and none at all when empty', () => {
    expect(analyzeMarkdown('# A\n').sections).toEqual([{ id: 'a', title: 'A', level: 1, body: '' }]);
    expect(analyzeMarkdown('').sections).toEqual([]);
  });
});

describe('slugs', () => {
  it('slugify folds accents, collapses separators, caps the length and is idempotent', () => {
    expect(slugify('  Hello, Wörld — Again!  ')).toBe('hello-world-again');
    expect(slugify('already-a-slug')).toBe('already-a-slug');
    expect(slugify('x'.repeat(120))).toHaveLength(100);
    expect(slugify('!!!')).toBe('');
  });

  it('uniqueSlug appends -2, -3 … within the length limit', () => {
    const taken = new Set(['intro', 'intro-2']);
    expect(uniqueSlug('intro', (s) => taken.has(s))).toBe('intro-3');
    expect(uniqueSlug('a'.repeat(100), (s) => s === 'a'.repeat(100))).toBe(`${'a'.repeat(98)}-2`);
  });

  it('AnchorSlugger never hands out the same anchor twice', () => {
    const s = new AnchorSlugger();
    expect(['A', 'A-1', 'A', 'A'].map((t) => s.slug(t))).toEqual(['a', 'a-1', 'a-2', 'a-3']);
  });
});
