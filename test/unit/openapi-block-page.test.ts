import { describe, expect, it } from 'vitest';
import { withOpenApiBlocks } from '../../sync-server/published-site/openapi-page';

describe('API reference blocks in a page body', () => {
  const md = 'Intro\n\n{% openapi-operation spec="pets" path="/pets" method="get" %}\n{% endopenapi-operation %}\n';

  it('stands as a marker paragraph while parsing, then takes the block', async () => {
    const page = withOpenApiBlocks(md);
    const marker = page.markdown.split('\n').find((l) => l.startsWith('folioapi'))!;
    expect(marker).toMatch(/^folioapi[0-9a-f]{24}x0$/);
    // The same text gives the same markers (the parse cache keeps hitting).
    expect(withOpenApiBlocks(md).markdown).toBe(page.markdown);
    const html = await page.fill(`<p>Intro</p>\n<p>${marker}</p>`, undefined);
    expect(html).toContain('<div class="openapi-operation oa-notice" role="note">');
    expect(html).toContain('OpenAPI spec not found');
    // A page shown as plain text gets the block's own text back.
    const plain = await page.fill(`<pre>Intro\n\n${marker}\n</pre>`, undefined);
    expect(plain).toContain('{% openapi-operation spec=&#34;pets&#34;');
  });

  it('leaves pages without blocks alone', async () => {
    const page = withOpenApiBlocks('# Hello\n');
    expect(page.markdown).toBe('# Hello\n');
    expect(await page.fill('<h1>Hello</h1>', undefined)).toBe('<h1>Hello</h1>');
  });

  it('cannot be forged by a page writing a marker-like line', async () => {
    const page = withOpenApiBlocks(`folioapi${'0'.repeat(24)}x0\n\n${md}`);
    const html = await page.fill(`<p>folioapi${'0'.repeat(24)}x0</p>`, undefined);
    expect(html).toBe(`<p>folioapi${'0'.repeat(24)}x0</p>`);
  });
});
