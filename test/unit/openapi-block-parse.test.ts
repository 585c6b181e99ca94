import { describe, expect, it } from 'vitest';
import { findOpenApiBlocks, replaceOpenApiBlocks } from '../../shared/markdown/openapi-block';

describe('OpenAPI blocks in markdown', () => {
  it('reads the three forms, with the method in lowercase', () => {
    const md = [
      '# API',
      '{% openapi-operation spec="pets" path="/pets" method="GET" %}',
      '[OpenAPI pets](https://example.com/pets.json)',
      '{% endopenapi-operation %}',
      '',
      '{% openapi src="https://example.com/a.yaml" path="/a" method="post" %}',
      '[https://example.com/a.yaml](https://example.com/a.yaml)',
      '{% endopenapi %}',
      '',
      '{% swagger src="https://example.com/s.json" path="/s/{id}" method="delete" %}',
      '{% swagger-description %}',
      'Deletes.',
      '{% endswagger-description %}',
      '{% endswagger %}',
    ].join('\n');
    expect(findOpenApiBlocks(md)).toEqual([
      { form: 'openapi-operation', spec: 'pets', path: '/pets', method: 'get', startLine: 1, endLine: 4 },
      { form: 'openapi', src: 'https://example.com/a.yaml', path: '/a', method: 'post', startLine: 5, endLine: 8 },
      {
        form: 'swagger',
        src: 'https://example.com/s.json',
        path: '/s/{id}',
        method: 'delete',
        startLine: 9,
        endLine: 14,
      },
    ]);
  });

  it('ignores tags in code fences, and an unclosed tag is a block of its own line', () => {
    const md = [
      '```markdown',
      '{% openapi-operation spec="pets" path="/pets" method="get" %}',
      '```',
      '{% openapi-operation spec="pets" path="/pets" method="get" %}',
      'text after',
    ].join('\n');
    const blocks = findOpenApiBlocks(md);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toMatchObject({ startLine: 3, endLine: 4 });
  });

  it('does not take other tags for blocks (swagger-description, openapi-webhook, hint)', () => {
    const md =
      '{% swagger-description %}\nx\n{% endswagger-description %}\n{% openapi-webhook spec="a" name="b" method="post" %}\n{% hint %}';
    expect(findOpenApiBlocks(md)).toEqual([]);
  });

  it('replaces each block by a marker paragraph', () => {
    const md =
      'Intro\n{% openapi-operation spec="pets" path="/pets" method="get" %}\n{% endopenapi-operation %}\nOutro';
    const out = replaceOpenApiBlocks(md, (i) => `MARK${i}`);
    expect(out.markdown).toBe('Intro\n\nMARK0\n\nOutro');
    expect(out.blocks).toHaveLength(1);
  });
});
