import { describe, expect, it } from 'vitest';
import { renderSiteBody } from '../../sync-server/markdown/site-html';

/**
 * GitBook's HTML figures on published pages: the image, its caption, and its
 * dark-mode variant (written by GitBook as a <picture> with a dark <source>)
 * as two images the site's theme picks from — sanitized like markdown images.
 */
const render = (markdown: string) => {
  const body = renderSiteBody(markdown);
  // Placeholders back to the URLs they stand for (the published site maps them to file URLs per request).
  return body.html.replace(new RegExp(`${body.token}_(\\d+)_`, 'g'), (_, i: string) => body.links[Number(i)]!);
};

describe('HTML figures', () => {
  it('keeps a figure with its caption', () => {
    const html = render(
      '<figure><img src="https://img.example.com/a.png" alt="A chart"><figcaption><p>Sales &amp; costs</p></figcaption></figure>\n',
    );
    expect(html).toBe(
      '<figure><p><img src="https://img.example.com/a.png" alt="A chart"></p><figcaption>Sales &#x26; costs</figcaption></figure>',
    );
  });

  it('turns a dark-mode <picture> into a light and a dark image', () => {
    const html = render(
      '<figure><picture><source srcset="../.gitbook/assets/dark.png" media="(prefers-color-scheme: dark)"><img src="../.gitbook/assets/light.png" alt="Diagram"></picture><figcaption></figcaption></figure>\n',
    );
    expect(html).toBe(
      '<figure><p><img src="../.gitbook/assets/light.png" alt="Diagram" class="only-light"><img src="../.gitbook/assets/dark.png" alt="Diagram" class="only-dark"></p></figure>',
    );
  });

  it('drops script URLs and event handlers of either variant', () => {
    const html = render(
      '<picture><source srcset="javascript:alert(1)" media="(prefers-color-scheme: dark)"><img src="x.png" onerror="alert(2)" alt="x"></picture>\n',
    );
    expect(html).not.toMatch(/javascript|onerror|alert/);
    expect(html).toContain('<img src="x.png" alt="x" class="only-light">');
    const bad = render('<figure><img src="javascript:alert(1)" alt="x"></figure>\n');
    expect(bad).not.toContain('javascript');
  });

  it('lets no other class through on images', () => {
    const html = render('<figure><img src="a.png" class="evil" alt=""></figure>\n![b](b.png)\n');
    expect(html).not.toContain('evil');
  });
});
