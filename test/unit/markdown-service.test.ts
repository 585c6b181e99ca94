import { afterAll, describe, expect, it } from 'vitest';
import { analyzeMarkdown, markdownToDocument } from '../../shared/markdown';
import { MarkdownService } from '../../sync-server/markdown/service';
import { HOSTILE_PAGES, SLOW_BUT_WITHIN_LIMITS } from '../helpers/hostile-markdown';

/**
 * The server's markdown service (sync-server/markdown): parsing in a lazy
 * worker pool with a time budget, limits checked first, results cached per
 * text. Real worker threads; nothing is mocked.
 */

const NORMAL = '# Guide\n\nRead [the setup](./setup.md) and ![a diagram](/files/f1).\n\n## Next\n\n- one\n- two\n';

const services: MarkdownService[] = [];
const service = (timeoutMs: number) => {
  const s = new MarkdownService({ timeoutMs });
  services.push(s);
  return s;
};
afterAll(async () => {
  await Promise.all(services.map((s) => s.close()));
});

describe('MarkdownService', () => {
  it('starts no worker until the first parse', async () => {
    const s = service(60_000);
    expect(s.stats()).toMatchObject({ threads: 0, tasks: 0 });
    await s.document(HOSTILE_PAGES.brackets);
    // Refused by the limits: still no thread.
    expect(s.stats()).toMatchObject({ threads: 0, tasks: 0, refused: 1 });
    await s.document(NORMAL);
    expect(s.stats()).toMatchObject({ threads: 1, tasks: 1 });
  });

  it('gives normal pages exactly what the shared converters give', async () => {
    const s = service(60_000);
    expect(await s.document(NORMAL)).toEqual(markdownToDocument(NORMAL, { blockKeys: true }));
    expect(await s.analysis(NORMAL)).toEqual(analyzeMarkdown(NORMAL));
    const site = await s.site(NORMAL);
    expect(site.degraded).toBeUndefined();
    expect(site.links).toEqual(['./setup.md', '/files/f1']);
    expect(site.html).toContain('<h2 id="next">Next</h2>');
    const pdf = await s.pdf(NORMAL);
    expect('blocks' in pdf && pdf.blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'heading', 'list']);
  });

  it('parses a text once per kind of use, and shares a parse between concurrent callers', async () => {
    const s = service(60_000);
    const text = `${NORMAL}\nOnce.\n`;
    const [a, b] = await Promise.all([s.document(text), s.document(text)]);
    expect(a).toBe(b);
    expect(await s.document(text)).toBe(a);
    expect(s.stats()).toMatchObject({ tasks: 1, cacheHits: 1 });
    await s.site(text);
    expect(s.stats().tasks).toBe(2);
  });

  it('degrades the hostile pages without parsing them', async () => {
    const s = service(60_000);
    for (const [name, page] of Object.entries(HOSTILE_PAGES)) {
      const doc = await s.document(page);
      expect(doc.data.degraded, name).toMatchObject({ reason: name === 'wideTable' ? 'table-columns' : 'nesting' });
      expect((await s.site(page)).html, name).toContain('class="folio-degraded"');
      expect(await s.analysis(page), name).toEqual({ links: [], sections: [expect.objectContaining({ body: page })] });
    }
    expect(s.stats()).toMatchObject({ tasks: 0, refused: 9 });
  });

  it('ends a parse past its time budget, degrades the text and never parses it again', async () => {
    const s = service(1);
    const doc = await s.document(SLOW_BUT_WITHIN_LIMITS);
    expect(doc.data.degraded).toMatchObject({ reason: 'timeout' });
    expect(doc.nodes[0]).toMatchObject({ type: 'code' });
    expect(s.stats()).toMatchObject({ tasks: 1, timeouts: 1, running: 0 });
    // Known to be too complex: every other use degrades at once.
    expect((await s.site(SLOW_BUT_WITHIN_LIMITS)).degraded).toMatchObject({ reason: 'timeout' });
    expect(await s.pdf(SLOW_BUT_WITHIN_LIMITS)).toMatchObject({ degraded: { reason: 'timeout' } });
    expect(s.stats()).toMatchObject({ tasks: 1, timeouts: 1 });
  });

  it('answers degraded forms once closed', async () => {
    const s = service(60_000);
    await s.close();
    expect((await s.document(NORMAL)).data.degraded).toMatchObject({ reason: 'error' });
    expect(s.stats().threads).toBe(0);
  });
});
