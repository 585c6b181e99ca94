import { describe, expect, it } from 'vitest';
import { rebaseEntryPage } from '../../sync-server/web-app';

/** The entry page the server answers for client-side routes under /app/ (history routing). */
describe('the web app entry page at deeper routes', () => {
  const html =
    '<link rel="icon" href="./favicon.ico"><script type="module" crossorigin src="./assets/index-x.js"></script>' +
    '<link rel="stylesheet" href="./assets/index-y.css"><a href="https://example.com/./x">';

  it('leaves /app/ itself as built', () => {
    expect(rebaseEntryPage(html, '/app/')).toBe(html);
    expect(rebaseEntryPage(html, '/app/settings')).toBe(html);
  });

  it('climbs back to /app/ from every depth, so assets load from a route like /app/s/x/guide/intro', () => {
    const at = (path: string) =>
      new URL(rebaseEntryPage(html, path).match(/src="([^"]+)"/)![1]!, `http://h${path}`).pathname;
    expect(at('/app/o/org1')).toBe('/app/assets/index-x.js');
    expect(at('/app/o/org1/c/col1')).toBe('/app/assets/index-x.js');
    expect(at('/app/s/sp1/getting-started/install')).toBe('/app/assets/index-x.js');
    expect(at('/app/o/org1/')).toBe('/app/assets/index-x.js');
    expect(rebaseEntryPage(html, '/app/s/sp1/guide')).toContain('href="../../favicon.ico"');
    // Absolute URLs are not touched.
    expect(rebaseEntryPage(html, '/app/s/sp1/guide')).toContain('href="https://example.com/./x"');
  });
});
