import { describe, expect, it } from 'vitest';
import { documentToMarkdown, markdownToDocument } from '../../shared/markdown';
import { findOpenApiBlocks } from '../../shared/markdown/openapi-block';

describe('OpenAPI blocks in GitBook documents', () => {
  const md = [
    'Intro.',
    '',
    '{% openapi-operation spec="pets" path="/pets/{id}" method="GET" %}',
    '[OpenAPI pets](https://example.com/pets.json)',
    '{% endopenapi-operation %}',
    '',
    '{% swagger src="https://example.com/s.json" path="/s" method="post" %}',
    '{% swagger-description %}',
    '',
    'Old description.',
    '',
    '{% endswagger-description %}',
    '{% endswagger %}',
    '',
    'Outro.',
  ].join('\n');

  it('makes one void block per operation, its inner lines none (keys too)', () => {
    for (const blockKeys of [false, true]) {
      const doc = markdownToDocument(md, { blockKeys });
      expect(doc.nodes.map((n) => n.type)).toEqual(['paragraph', 'openapi-operation', 'swagger', 'paragraph']);
      expect(doc.nodes[1]).toMatchObject({
        object: 'block',
        type: 'openapi-operation',
        isVoid: true,
        data: { ref: { kind: 'openapi', spec: 'pets' }, path: '/pets/{id}', method: 'get' },
      });
      expect(doc.nodes[2]).toMatchObject({
        type: 'swagger',
        data: { ref: { kind: 'url', url: 'https://example.com/s.json' }, path: '/s', method: 'post' },
      });
      if (blockKeys) expect(new Set(doc.nodes.map((n) => n.key)).size).toBe(4);
    }
  });

  it('writes the blocks back as liquid tags that read as the same blocks', () => {
    const back = documentToMarkdown(markdownToDocument(md));
    expect(back).toContain(
      '{% openapi-operation spec="pets" path="/pets/{id}" method="get" %}\n{% endopenapi-operation %}',
    );
    const blocks = findOpenApiBlocks(back);
    expect(blocks.map((b) => [b.form, b.spec ?? b.src, b.path, b.method])).toEqual([
      ['openapi-operation', 'pets', '/pets/{id}', 'get'],
      ['openapi', 'https://example.com/s.json', '/s', 'post'],
    ]);
  });

  it('leaves a tag in code as code', () => {
    const doc = markdownToDocument('```\n{% openapi-operation spec="a" path="/" method="get" %}\n```');
    expect(doc.nodes.map((n) => n.type)).toEqual(['code']);
  });
});
