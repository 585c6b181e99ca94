import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { assertMatchesGitBook } from '../helpers/gitbook-schema';
import { startTestServer, TEST_ADMIN_TOKEN, type TestServer } from '../helpers/server';

/**
 * Site customization (GitBook's getSiteCustomizationById /
 * updateSiteCustomizationById) through the official client, and what it
 * changes on the published site: primary color, title, logo, favicon, font
 * and header links — at once, although pages are cached as rendered bytes.
 */
let t: TestServer;
let orgId: string;
let siteId: string;

const page = async (path = '') => {
  const res = await fetch(`${t.url}/sites/${siteId}/${path}`);
  return { status: res.status, csp: res.headers.get('content-security-policy') ?? '', body: await res.text() };
};

const put = (body: unknown) =>
  fetch(`${t.url}/v1/orgs/${orgId}/sites/${siteId}/customization`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Look Org' })).data.id;
  const space = (await t.client.orgs.createSpace(orgId, { title: 'Guide' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(space), (doc) => {
    new ContentDoc(doc).createPage({ title: 'Welcome', markdown: 'Hello readers.\n' });
  });
  await t.server.ctx.snapshots.revise(space);
  siteId = (await t.client.orgs.createSite(orgId, { title: 'Plain Docs', spaces: [space] })).data.id;
  await t.client.orgs.publishSite(orgId, siteId);
});
afterAll(async () => {
  await t?.close();
});

describe('site customization API', () => {
  it('answers the defaults, in GitBook’s shape, before anything is set', async () => {
    const res = await t.client.orgs.getSiteCustomizationById(orgId, siteId);
    assertMatchesGitBook('getSiteCustomizationById', 200, res.data);
    expect(res.data.styling.primaryColor).toEqual({ light: '#2b5fce', dark: '#7aa7ff' });
    expect(res.data.header.links).toEqual([]);
    expect(res.data.updatedAt).toBeUndefined();
  });

  it('stores what is sent over what was there, and answers the whole settings', async () => {
    const first = await t.client.orgs.updateSiteCustomizationById(orgId, siteId, {
      styling: { primaryColor: { light: '#b4236e', dark: '#ff8ac6' }, font: 'Roboto' },
    } as never);
    assertMatchesGitBook('updateSiteCustomizationById', 200, first.data);
    const res = await t.client.orgs.updateSiteCustomizationById(orgId, siteId, {
      title: 'Acme Handbook',
      favicon: { emoji: '🦊' },
      header: {
        logo: { light: 'https://cdn.example.com/logo.png', dark: 'https://cdn.example.com/logo-dark.png' },
        links: [
          { title: 'Blog', to: { kind: 'url', url: 'https://blog.example.com/' }, links: [] },
          {
            title: 'More',
            to: null,
            links: [{ title: 'Status', to: { kind: 'url', url: 'https://status.example.com/' } }],
          },
        ],
      },
    } as never);
    assertMatchesGitBook('updateSiteCustomizationById', 200, res.data);
    expect(res.data.styling.primaryColor).toEqual({ light: '#b4236e', dark: '#ff8ac6' });
    expect(res.data.styling.font).toBe('Roboto');
    expect(res.data.styling.corners).toBe('rounded');
    expect(res.data.favicon).toEqual({ emoji: '🦊' });
    expect(typeof res.data.updatedAt).toBe('string');
    const again = await t.client.orgs.getSiteCustomizationById(orgId, siteId);
    expect(again.data).toEqual(res.data);
    // The published profile reports it too, for the site and each of its site spaces.
    const profile = await t.client.orgs.getPublishedContentSite(orgId, siteId);
    assertMatchesGitBook('getPublishedContentSite', 200, profile.data);
    expect(profile.data.customizations.site).toEqual(res.data);
    for (const c of Object.values(profile.data.customizations.siteSpaces)) expect(c.title).toBe('Acme Handbook');
  });

  it.each([
    ['a color that is not hex', { styling: { primaryColor: { light: 'red', dark: '#000' } } }, 'primaryColor'],
    ['a logo URL with a script scheme', { header: { logo: { light: 'javascript:alert(1)', dark: 'x' } } }, 'logo'],
    [
      'a header link to a script URL',
      { header: { links: [{ title: 'X', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] }] } },
      'header.links[0].to',
    ],
    ['a favicon that is neither icon nor emoji', { favicon: { svg: '<svg/>' } }, 'favicon'],
    ['a font name that would break CSS', { styling: { font: 'x}body{display:none' } }, 'font'],
  ])('refuses %s with 400 in GitBook’s error shape', async (_, body, word) => {
    const res = await put(body);
    expect(res.status).toBe(400);
    const json = (await res.json()) as { error: { code: number; message: string } };
    expect(json.error.code).toBe(400);
    expect(json.error.message).toContain(word);
  });
});

describe('customized published site', () => {
  it('shows the color, title, logo, favicon, font and header links, allowed by the CSP', async () => {
    const { status, csp, body } = await page();
    expect(status).toBe(200);
    expect(body).toContain('<title>Welcome | Acme Handbook</title>');
    expect(body).toContain('--accent:#b4236e');
    expect(body).toContain('--accent:#ff8ac6');
    expect(body).toContain('font-family:"Roboto"');
    expect(body).toMatch(
      /<img class="logo logo-light" src="https:\/\/cdn\.example\.com\/logo\.png" alt="Acme Handbook">/,
    );
    expect(body).toContain('src="https://cdn.example.com/logo-dark.png"');
    expect(body).toMatch(/<link rel="icon" href="data:image\/svg\+xml,[^"]+">/);
    expect(body).toContain('<a href="https://blog.example.com/">Blog</a>');
    expect(body).toContain('<summary>More</summary>');
    expect(body).toContain('<a href="https://status.example.com/">Status</a>');
    // Every inline stylesheet is allowed by a hash in the CSP.
    for (const [, css] of body.matchAll(/<style>([\s\S]*?)<\/style>/g))
      expect(csp).toContain(`'sha256-${createHash('sha256').update(css!).digest('base64')}'`);
  });

  it('drops the cached page when the customization changes', async () => {
    expect((await page()).body).toContain('--accent:#b4236e');
    const res = await put({ styling: { primaryColor: { light: '#0a7a55', dark: '#5be0b0' } } });
    expect(res.status).toBe(200);
    const after = (await page()).body;
    expect(after).toContain('--accent:#0a7a55');
    expect(after).not.toContain('#b4236e');
  });

  it('hides previous/next links when pagination is off', async () => {
    expect((await put({ pagination: { enabled: false } })).status).toBe(200);
    expect((await page()).body).toContain('.pager{display:none}');
  });

  it('opens in the default theme it sets, and without the toggle when readers may not switch', async () => {
    const html = (body: string) => /<html[^>]*>/.exec(body)![0];
    let body = (await page()).body;
    expect(html(body)).toBe('<html lang="en">');
    expect(body).toContain('data-testid="theme-toggle"');
    expect((await put({ themes: { default: 'dark', toggeable: true } })).status).toBe(200);
    body = (await page()).body;
    // The default, which a reader's own choice (remembered by the page script) still overrides.
    expect(html(body)).toBe('<html lang="en" data-theme="dark">');
    expect(body).toContain('data-testid="theme-toggle"');
    expect(body).toContain('<meta name="color-scheme" content="light dark">');
    expect((await put({ themes: { default: 'light', toggeable: false } })).status).toBe(200);
    const fixed = await page();
    expect(html(fixed.body)).toBe('<html lang="en" data-theme="light" data-theme-fixed>');
    expect(fixed.body).not.toContain('data-testid="theme-toggle"');
    expect(fixed.body).toContain('<meta name="color-scheme" content="light">');
    // The boot script that skips a fixed theme is allowed by the page's CSP.
    const boot = /<script>([\s\S]*?)<\/script>/.exec(fixed.body)![1]!;
    expect(boot).toContain('data-theme-fixed');
    expect(fixed.csp).toContain(`'sha256-${createHash('sha256').update(boot).digest('base64')}'`);
    expect((await put({ themes: { default: 'system', toggeable: true } })).status).toBe(200);
    expect(html((await page()).body)).toBe('<html lang="en">');
  });
});
