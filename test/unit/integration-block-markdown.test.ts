import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument } from '../../shared/markdown';
import {
  findIntegrationTags,
  integrationTag,
  parseIntegrationTagLine,
  type CodeblockMapping,
} from '../../shared/markdown/integration-block';

describe('integration block tags', () => {
  it('reads the integration, the block and string props', () => {
    expect(parseIntegrationTagLine('{% @github-files/code-block url="https://github.com/a/b" lines="1-3" %}')).toEqual({
      integration: 'github-files',
      block: 'code-block',
      props: { url: 'https://github.com/a/b', lines: '1-3' },
    });
    expect(parseIntegrationTagLine('  {%- @x/y -%}  ')).toEqual({ integration: 'x', block: 'y', props: {} });
  });

  it('is not fooled by lookalikes', () => {
    expect(parseIntegrationTagLine('{% hint style="info" %}')).toBeUndefined();
    expect(parseIntegrationTagLine('{% @x/y a="unterminated %}')).toBeUndefined();
    expect(parseIntegrationTagLine('{% @x/y a="1" %} trailing text')).toBeUndefined();
    expect(parseIntegrationTagLine('text {% @x/y %}')).toBeUndefined();
    expect(findIntegrationTags('```\n{% @x/y %}\n```\n\n{% @x/z %}\n').map((t) => [t.block, t.line])).toEqual([
      ['z', 4],
    ]);
  });

  it('writes any props so they read back the same', () => {
    const props = {
      text: 'quote " back\\slash %} tab\t and\nnew line',
      count: 3,
      open: true,
      none: null,
      cols: ['a', '%}', { deep: 'x"y' }],
      obj: { k: 1.5 },
      word: 'plain',
    };
    const tag = integrationTag({ integration: 'acme', block: 'chart', props });
    expect(tag).not.toContain('\n');
    expect(tag.indexOf('%}')).toBe(tag.length - 2);
    expect(parseIntegrationTagLine(tag)).toEqual({ integration: 'acme', block: 'chart', props });
  });

  it('reads bare words as strings and JSON literals as their values', () => {
    expect(parseIntegrationTagLine('{% @a/b w=hello n=2 f=false %}')?.props).toEqual({ w: 'hello', n: 2, f: false });
  });
});

describe('integration blocks in GitBook documents', () => {
  const page = [
    '# Diagrams',
    '',
    'Before.',
    '',
    '{% @mermaid/diagram content="graph TD; A-->B" theme="dark" %}',
    '',
    'After.',
    '',
  ].join('\n');

  it('makes one void DocumentBlockIntegration per tag (keys too)', () => {
    for (const blockKeys of [false, true]) {
      const doc = markdownToDocument(page, { blockKeys });
      expect(doc.nodes.map((n) => n.type)).toEqual(['heading-1', 'paragraph', 'integration', 'paragraph']);
      expect(doc.nodes[2]).toMatchObject({
        object: 'block',
        type: 'integration',
        isVoid: true,
        data: { integration: 'mermaid', block: 'diagram', props: { content: 'graph TD; A-->B', theme: 'dark' } },
      });
    }
  });

  it('round-trips a page holding one byte for byte', () => {
    expect(documentToMarkdown(markdownToDocument(page))).toBe(page);
    const awkward = `Text.\n\n${integrationTag({ integration: 'x', block: 'y', props: { s: 'a "b" %} c\nd', n: [1, '%'] } })}\n`;
    expect(documentToMarkdown(markdownToDocument(awkward))).toBe(awkward);
  });

  it('keeps a tag inside a paragraph as text', () => {
    const doc = markdownToDocument('Line one\n{% @x/y a="1" %}\n');
    expect(doc.nodes.map((n) => n.type)).toEqual(['paragraph']);
  });

  it('leaves a tag in code as code', () => {
    expect(markdownToDocument('```\n{% @x/y %}\n```\n').nodes.map((n) => n.type)).toEqual(['code']);
  });

  describe('the code block form (a manifest `markdown` mapping)', () => {
    const mappings: CodeblockMapping[] = [
      { integration: 'mermaid', block: 'diagram', codeblock: 'mermaid', body: 'content' },
    ];
    const fenced = 'Intro.\n\n```mermaid theme="dark"\ngraph TD\n  A --> B\n```\n';

    it('reads a mapped fence as the block, its text as the body prop', () => {
      const doc = markdownToDocument(fenced, { integrationCodeblocks: mappings });
      expect(doc.nodes[1]).toMatchObject({
        type: 'integration',
        data: { integration: 'mermaid', block: 'diagram', props: { theme: 'dark', content: 'graph TD\n  A --> B' } },
      });
      // Without the mapping it is a code block.
      expect(markdownToDocument(fenced).nodes[1]!.type).toBe('code');
    });

    it('round-trips byte for byte', () => {
      const doc = markdownToDocument(fenced, { integrationCodeblocks: mappings });
      expect(documentToMarkdown(doc, { integrationCodeblocks: mappings })).toBe(fenced);
    });

    it('writes the tag when the block has no mapping, or no string body', () => {
      const doc = markdownToDocument(fenced, { integrationCodeblocks: mappings });
      expect(documentToMarkdown(doc)).toBe(
        'Intro.\n\n{% @mermaid/diagram theme="dark" content="graph TD\\n  A --> B" %}\n',
      );
      const tagPage = '{% @mermaid/diagram theme="dark" content=3 %}\n';
      expect(documentToMarkdown(markdownToDocument(tagPage), { integrationCodeblocks: mappings })).toBe(tagPage);
    });
  });
});
