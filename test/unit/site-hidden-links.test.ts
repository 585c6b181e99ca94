import { describe, expect, it } from 'vitest';
import { analyzeMarkdown, createLinkTargets } from '../../shared/markdown';
import { renderSiteBody } from '../../sync-server/markdown/site-html';
import { renderMarkdown } from '../../sync-server/published-site/markdown';
import {
  degradedWithoutHiddenLinks,
  hiddenLinkTest,
  withoutHiddenLinks,
} from '../../sync-server/published-site/hidden-links';

/**
 * Links to pages hidden from a visitor (page conditions) keep their text and
 * lose their target, in the HTML body (published-site/markdown.ts) and the
 * markdown copies (published-site/hidden-links.ts); test/api
 * published-site-page-conditions.test.ts covers them on a served site.
 */

const targets = createLinkTargets(
  [
    { id: 'home', path: 'home', hasChildren: false },
    { id: 'secret', path: 'secret', hasChildren: true },
    { id: 'inner', path: 'secret/inner', hasChildren: false },
  ],
  [{ id: 'f1', name: 'logo.png' }],
);
/** `secret` and the page under it are hidden; links are written in the page `home`. */
const isHidden = hiddenLinkTest(new Set(['secret', 'inner']), targets, 'home');

const MARKDOWN = [
  'See [the *secret* page](/pages/secret "Secret") and [inner](./secret/inner.md).',
  '',
  'A [![logo](./logo.png)](/pages/secret) badge, a [reference][s] and [home](/pages/home).',
  '',
  'Code: `[x](/pages/secret)` stays text.[^1]',
  '',
  '[s]: </pages/secret#part> "Part"',
  '[^1]: A note.',
  '',
].join('\n');

describe('the HTML body', () => {
  const body = renderSiteBody(MARKDOWN);
  const html = renderMarkdown(body, 'home', {
    targets,
    pageUrl: (id, anchor) => `/site/${id}${anchor ? `#${anchor}` : ''}`,
    fileUrl: (id) => `/files/${id}/download`,
    isHidden,
  });

  it('renders links to hidden pages as their content, attributes and all', () => {
    expect(html).toContain('See the <em>secret</em> page and inner.');
    expect(html).toMatch(/A <img src="\/files\/f1\/download" alt="logo"> badge, a reference and /);
    expect(html).not.toMatch(/\/site\/secret|\/site\/inner|\/pages\/secret"|title="Secret"/);
  });

  it('keeps every other link: visible pages, files, footnotes', () => {
    expect(html).toContain('<a href="/site/home">home</a>');
    expect(html).toMatch(/<a href="#user-content-fn-1" id="user-content-fnref-1"[^>]*>1<\/a>/);
  });

  it('leaves the body as it was when nothing is hidden', () => {
    const plain = renderMarkdown(body, 'home', { targets, pageUrl: (id) => `/site/${id}`, fileUrl: () => undefined });
    expect(plain).toContain('<a href="/site/secret" title="Secret">the <em>secret</em> page</a>');
  });
});

describe('the markdown copies', () => {
  const out = withoutHiddenLinks(MARKDOWN, analyzeMarkdown(MARKDOWN).links, isHidden);

  it('replaces links to hidden pages with their text and drops their reference definitions', () => {
    expect(out).toContain('See the secret page and inner.');
    expect(out).toContain('A logo badge, a reference and [home](/pages/home).');
    expect(out).not.toContain('[s]:');
    expect(out).toContain('[^1]: A note.');
  });

  it('leaves no canonical link to a hidden page even outside the parsed links (code, plain-text pages)', () => {
    expect(out).toContain('Code: `x` stays text.');
    expect(out).not.toMatch(/\/pages\/secret|secret\/inner/);
    const degraded = degradedWithoutHiddenLinks('<pre>[a](/pages/secret) [b](/pages/home)</pre>', isHidden);
    expect(degraded).toBe('<pre>a [b](/pages/home)</pre>');
  });
});
