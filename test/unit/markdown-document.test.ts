import { describe, expect, it } from 'vitest';
import {
  analyzeMarkdown,
  createLinkTargets,
  documentToMarkdown,
  markdownToDocument,
  MarkdownTooComplexError,
  resolveLink,
  type DocBlock,
  type DocRef,
  type DocText,
  type JSONDocument,
} from '../../shared/markdown';
import { assertMatchesGitBook } from '../helpers/gitbook-schema';

/** markdown <-> GitBook JSON document: shapes, round trips, and GitBook's JSONDocument schema. */

const text = (t: string, ...marks: string[]) => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: t, marks: marks.map((type) => ({ object: 'mark', type })) }],
});
const validate = (doc: JSONDocument) => assertMatchesGitBook('getPageDocumentInRevisionById', 200, doc);

/** Canonical markdown: documentToMarkdown(markdownToDocument(x)) === x for each. */
const CANONICAL = [
  'Plain paragraph.\n',
  'Some **bold**, *italic*, ~~struck~~ and `code` text, **bold _and italic_**.\n',
  '# One\n\n## Two\n\n### Three\n',
  '- a\n- b\n  - nested\n- c\n',
  '3. three\n4. four\n',
  '- [ ] todo\n- [x] done\n',
  '> Quoted **text**\n>\n> > nested quote\n',
  '> [!WARNING]\n> Mind the gap.\n',
  '> [!TIP]\n> - a tip\n> - in a list\n',
  '```ts\nconst a = 1;\n\nconsole.log(a);\n```\n',
  '```\nno language\n```\n',
  '---\n',
  '![Alt text](https://example.com/a.png "A caption") ![](/files/f1)\n',
  'Inline ![icon](https://example.com/i.svg) image and [a link](https://example.com) and [`code link`](/pages/p1).\n',
  '| Name   | Value |  Centre |\n| ------ | ----: | :-----: |\n| *a*    |     1 | \\| pipe |\n| [b](x) |       |         |\n',
  '- item\n  ```js\n  code in item\n  ```\n',
  '- a\n\n  b\n- c\n',
  'Line one\nline two\n',
];

/** Non-canonical markdown: converts to a document that round-trips stably. */
const NORMALIZED: [string, string][] = [
  ['* star bullet\n+ plus\n', '- star bullet\n\n* plus\n'],
  ['Setext\n======\n', '# Setext\n'],
  ['#### Deep heading\n', '### Deep heading\n'],
  ['__bold__ _em_\n', '**bold** *em*\n'],
  ['***\n', '---\n'],
  ['1. a\n\n2. b\n', '1. a\n2. b\n'],
  ['[ref][r]\n\n[r]: https://example.com\n', '[ref](https://example.com)\n'],
  ['Hard  \nbreak\n', 'Hard\nbreak\n'],
  ['| a |\n|:--|\n| 1 |\n', '| a |\n| - |\n| 1 |\n'],
  ['> ```\n> code in quote\n> ```\n', '> `code in quote`\n'],
  ['<div>html</div>\n', '\\<div>html\\</div>\n'],
];

describe('markdownToDocument', () => {
  it('produces GitBook blocks, inlines and marks', () => {
    const doc = markdownToDocument('# Title\n\nA **b** [l](https://x.test) ![i](https://x.test/i.png)\n\n---\n');
    expect(doc).toEqual({
      object: 'document',
      data: {},
      nodes: [
        { object: 'block', type: 'heading-1', data: {}, meta: { id: 'title' }, isVoid: false, nodes: [text('Title')] },
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          isVoid: false,
          nodes: [
            {
              object: 'text',
              leaves: [
                { object: 'leaf', text: 'A ', marks: [] },
                { object: 'leaf', text: 'b', marks: [{ object: 'mark', type: 'bold' }] },
                { object: 'leaf', text: ' ', marks: [] },
              ],
            },
            {
              object: 'inline',
              type: 'link',
              data: { ref: { kind: 'url', url: 'https://x.test' } },
              isVoid: false,
              nodes: [text('l')],
            },
            text(' '),
            {
              object: 'inline',
              type: 'inline-image',
              data: { ref: { kind: 'url', url: 'https://x.test/i.png' }, alt: 'i' },
              isVoid: true,
            },
          ],
        },
        { object: 'block', type: 'divider', data: {}, isVoid: true },
      ],
    });
  });

  it('maps lists, tasks, code, hints, images and tables to their GitBook blocks', () => {
    const doc = markdownToDocument(
      '5. x\n\n- [x] t\n\n```py\na\nb\n```\n\n> [!CAUTION]\n> c\n\n![a](https://x.test/a.png "cap")\n\n| h |\n|--:|\n| v |\n',
    );
    const [ordered, tasks, code, hint, images, table] = doc.nodes;
    expect(ordered).toMatchObject({
      type: 'list-ordered',
      data: { start: 5 },
      nodes: [{ type: 'list-item', nodes: [{ type: 'paragraph' }] }],
    });
    expect(tasks).toMatchObject({ type: 'list-tasks', nodes: [{ type: 'list-item', data: { checked: true } }] });
    expect(code).toMatchObject({
      type: 'code',
      data: { syntax: 'py' },
      nodes: [
        { type: 'code-line', nodes: [text('a')] },
        { type: 'code-line', nodes: [text('b')] },
      ],
    });
    expect(hint).toMatchObject({
      type: 'hint',
      data: { style: 'danger' },
      nodes: [{ type: 'paragraph', nodes: [text('c')] }],
    });
    expect(images).toMatchObject({
      type: 'images',
      nodes: [
        {
          type: 'image',
          isVoid: true,
          data: { ref: { kind: 'url', url: 'https://x.test/a.png' }, alt: 'a' },
          fragments: [{ fragment: 'caption', nodes: [{ type: 'paragraph', nodes: [text('cap')] }] }],
        },
      ],
    });
    expect(table).toMatchObject({
      type: 'table',
      isVoid: true,
      data: {
        view: { type: 'grid', columns: ['c0'], hideHeader: false },
        definition: { c0: { id: 'c0', title: 'h', type: 'text', textAlignment: 'right' } },
        records: { r0: { values: { c0: 'r0-c0' } } },
      },
      fragments: [{ object: 'fragment', fragment: 'r0-c0', nodes: [{ type: 'paragraph', nodes: [text('v')] }] }],
    });
  });

  it('resolves links with the given resolver: pages, files and anchors become references', () => {
    const targets = createLinkTargets(
      [
        { id: 'PA', path: 'a', hasChildren: false },
        { id: 'PB', path: 'b', hasChildren: false },
      ],
      [{ id: 'F1', name: 'x.png' }],
    );
    const resolve = (href: string): DocRef => {
      const r = resolveLink('a', href, targets);
      if (r.kind === 'page')
        return r.anchor ? { kind: 'anchor', anchor: r.anchor, page: r.page } : { kind: 'page', page: r.page };
      if (r.kind === 'file') return { kind: 'file', file: r.file };
      if (r.kind === 'anchor') return { kind: 'anchor', anchor: r.anchor };
      return { kind: 'url', url: href };
    };
    const doc = markdownToDocument(
      '[b](./b.md) [s](b.md#s) [t](#top) ![x](./x.png) [w](https://w.test) [gone](./gone.md)\n',
      { resolve },
    );
    const refs = JSON.stringify(doc).match(/"ref":\{[^}]*\}/g);
    expect(refs).toEqual([
      '"ref":{"kind":"page","page":"PB"}',
      '"ref":{"kind":"anchor","anchor":"s","page":"PB"}',
      '"ref":{"kind":"anchor","anchor":"top"}',
      '"ref":{"kind":"file","file":"F1"}',
      '"ref":{"kind":"url","url":"https://w.test"}',
      '"ref":{"kind":"url","url":"./gone.md"}',
    ]);
    validate(doc);
    expect(documentToMarkdown(doc)).toBe(
      '[b](/pages/PB) [s](/pages/PB#s) [t](#top) ![x](/files/F1) [w](https://w.test) [gone](./gone.md)\n',
    );
    const paths: Record<string, string> = { PB: '/b' };
    expect(
      documentToMarkdown(doc, { hrefFor: (ref) => (ref.kind === 'page' ? paths[ref.page] : undefined) }),
    ).toContain('[b](/b)');
  });
});

describe('round trips', () => {
  it.each(CANONICAL)('canonical markdown survives markdown -> document -> markdown unchanged: %j', (md) => {
    const doc = markdownToDocument(md);
    validate(doc);
    expect(documentToMarkdown(doc)).toBe(md);
  });

  it.each(NORMALIZED)('other markdown is normalized once, then stable: %j', (md, normalized) => {
    const doc = markdownToDocument(md);
    validate(doc);
    const once = documentToMarkdown(doc);
    expect(once).toBe(normalized);
    expect(markdownToDocument(once)).toEqual(doc);
  });

  it('an empty page is an empty document and back', () => {
    expect(markdownToDocument('')).toEqual({ object: 'document', data: {}, nodes: [] });
    expect(documentToMarkdown({ object: 'document', data: {}, nodes: [] })).toBe('');
  });
});

describe('documentToMarkdown of documents from elsewhere', () => {
  it('keeps the text of blocks and inlines Folio does not model', () => {
    const doc = {
      object: 'document',
      data: {},
      nodes: [
        {
          object: 'block',
          type: 'tabs',
          data: {},
          nodes: [
            {
              object: 'block',
              type: 'tabs-item',
              data: { title: 'T' },
              nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('In a tab')] }],
            },
          ],
        },
        {
          object: 'block',
          type: 'paragraph',
          data: {},
          nodes: [
            text('x '),
            { object: 'inline', type: 'emoji', data: { code: '1f600' } },
            text('bold', 'bold', 'keyboard'),
          ],
        },
        { object: 'block', type: 'embed', data: { url: 'https://x.test' }, isVoid: true },
      ],
    } as JSONDocument;
    expect(documentToMarkdown(doc)).toBe('In a tab\n\nx **bold**\n');
  });
});

describe('pathologically nested input', () => {
  const deepQuotes = `${'>'.repeat(8000)} deep\n\nafter\n`;

  it('markdown too deep to parse becomes plain paragraphs, and its analysis is empty', () => {
    const doc = markdownToDocument(deepQuotes);
    expect(doc.nodes.map((n) => n.type)).toEqual(['paragraph', 'paragraph']);
    expect(doc.nodes[1]).toMatchObject({ nodes: [text('after\n')] });
    validate(doc);
    expect(analyzeMarkdown(deepQuotes)).toEqual({ links: [], sections: [] });
  });

  it('a document too deep to convert is refused with MarkdownTooComplexError', () => {
    let node: DocBlock = { object: 'block', type: 'paragraph', data: {}, nodes: [text('x') as DocText] };
    for (let i = 0; i < 50_000; i++) node = { object: 'block', type: 'blockquote', data: {}, nodes: [node] };
    expect(() => documentToMarkdown({ object: 'document', data: {}, nodes: [node] })).toThrow(MarkdownTooComplexError);
  });
});
