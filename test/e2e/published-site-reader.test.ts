import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeScan, seriousFindings } from '../helpers/axe';
import { ARTIFACTS_DIR, useChromium } from '../helpers/browser';
import { editLive } from '../helpers/seed';

/**
 * A published site as a reader meets it, in real Chromium: the layout at
 * desktop, tablet and phone widths in light and dark (screenshots kept in
 * test-artifacts/), no horizontal scrolling at 360 px, every in-page anchor
 * pointing at something, GitBook blocks and highlighted code, the table of
 * contents, previous/next, the drawer, search from the keyboard, reading
 * without JavaScript, and an axe-core accessibility scan.
 */
// The pages are written as the app writes them (over the sync socket): the guide starts with its own
// "# Getting started" and "Guides" is a page group, neither of which a REST change writes. A short
// quiet period makes them a revision at once.
const e2e = useChromium({ env: { FOLIO_REVISION_QUIET_MS: '50' } });
let home: string;
const GUIDE = `# Getting started

Folio publishes your documentation as a fast static site.

## Install

{% hint style="info" %}
You need **Node 20** or later.
{% endhint %}

{% tabs %}
{% tab title="npm" %}
\`\`\`bash
npm install -g folio
\`\`\`
{% endtab %}
{% tab title="Docker" %}
\`\`\`bash
docker run -p 8080:8080 folio/server
\`\`\`
{% endtab %}
{% endtabs %}

## Configure

{% code title="server.ts" lineNumbers="true" %}
\`\`\`ts
import { createServer } from 'folio';

// Listen where readers can reach it.
const server = createServer({ port: 8080, publicUrl: 'https://docs.example.com' });
await server.listen();
\`\`\`
{% endcode %}

> [!WARNING]
> Keep your secrets out of the repository.

| Setting | Default | Meaning |
|---|---|---|
| port | 8080 | Where the server listens |
| publicUrl | — | The address readers use |

- [x] Install the server
- [ ] Publish a site

<details>
<summary>What about Windows?</summary>

Use WSL 2, then follow the Linux steps.

</details>

{% content-ref url="configuration.md" %}
[Configuration](configuration.md)
{% endcontent-ref %}

{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}

<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Configure</strong></td><td>Every setting explained.</td><td><a href="configuration.md">configuration.md</a></td></tr><tr><td><strong>Write</strong></td><td>Pages in markdown.</td><td><a href="guides/writing.md">writing</a></td></tr></tbody></table>

### Verify the install

Run \`folio --version\`; the zeppelin check prints the version and exits.

## Next steps

Read about [configuration](#configure) or jump to [the top](#install).
`;

beforeAll(async () => {
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: 'Reader Org' })).data.id;
  const guide = (await t.client.orgs.createSpace(orgId, { title: 'Guide' })).data.id;
  const api = (await t.client.orgs.createSpace(orgId, { title: 'API' })).data.id;
  await editLive(t, guide, (c) => {
    c.createPage({ title: 'Getting started', description: 'Install Folio and publish a first site.', markdown: GUIDE });
    c.createPage({
      title: 'Configuration',
      slug: 'configuration',
      markdown:
        'Every setting is an environment variable.\n\n## Ports\n\nThe port is 8080.\n\n## Storage\n\nFiles go to disk.\n',
    });
    const group = c.createPage({ title: 'Guides', kind: 'group', slug: 'guides' });
    c.createPage({ title: 'Writing pages', parent: group, slug: 'writing', markdown: 'Write markdown.\n' });
  });
  await editLive(t, api, (c) => void c.createPage({ title: 'Reference', markdown: 'The REST API.\n' }));
  const siteId = (await t.client.orgs.createSite(orgId, { title: 'Folio Docs', spaces: [guide] })).data.id;
  await t.client.orgs.addSectionToSite(orgId, siteId, { spaceId: api, title: 'API reference' });
  await t.client.orgs.publishSite(orgId, siteId);
  home = `${e2e.server.url}/sites/${siteId}/`;
});

const WIDTHS = [1440, 768, 360] as const;

async function open(
  width: number,
  colorScheme: 'light' | 'dark',
  javaScriptEnabled = true,
  bypassCSP = false,
): Promise<Page> {
  const page = await e2e.newPage({ viewport: { width, height: 900 }, colorScheme, javaScriptEnabled, bypassCSP });
  await page.goto(home);
  return page;
}

describe('layout', () => {
  for (const scheme of ['light', 'dark'] as const)
    for (const width of WIDTHS)
      it(`shows the page at ${width} px (${scheme}) without horizontal scrolling`, async () => {
        const page = await open(width, scheme);
        expect(await page.textContent('main h1')).toBe('Getting started');
        // The body's "# Getting started" repeats the title: shown once.
        expect(await page.locator('main h1').count()).toBe(1);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        expect(background).toBe(scheme === 'dark' ? 'rgb(15, 17, 21)' : 'rgb(255, 255, 255)');
        // The page tree: a column on wide screens, a drawer behind the menu button on narrow ones.
        expect(await page.locator('.sidebar').isVisible()).toBe(width >= 900);
        expect(await page.locator('.toc').isVisible()).toBe(width >= 1280);
        await e2e.screenshot(page, `published-site-${width}-${scheme}`);
      });

  it('opens the navigation drawer on a phone and closes it with Escape', async () => {
    const page = await open(360, 'light');
    await page.click('[data-testid=site-menu]');
    await expect.poll(() => page.locator('.sidebar').isVisible()).toBe(true);
    expect(await page.locator('[data-testid=site-menu]').getAttribute('aria-expanded')).toBe('true');
    await e2e.screenshot(page, 'published-site-360-drawer');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('.sidebar').isVisible()).toBe(false);
  });

  it('has a target for every in-page anchor', async () => {
    const page = await open(1440, 'light');
    const missing = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLAnchorElement>('a[href^="#"]'))
        .map((a) => decodeURIComponent(a.getAttribute('href')!.slice(1)))
        .filter((id) => id !== '' && !document.getElementById(id)),
    );
    expect(missing).toEqual([]);
    const toc = await page.locator('.toc a').allTextContents();
    expect(toc).toEqual(['Install', 'Configure', 'Verify the install', 'Next steps']);
  });

  it('links to the previous and next pages and shows breadcrumbs', async () => {
    const page = await open(1440, 'light');
    await page.click('.pager a.next');
    expect(await page.textContent('main h1')).toBe('Configuration');
    await page.click('.pager a.next');
    expect(await page.textContent('main h1')).toBe('Writing pages');
    expect(await page.locator('.crumbs li').allTextContents()).toEqual(['Guides']);
    await page.click('.pager a.prev');
    expect(await page.textContent('main h1')).toBe('Configuration');
  });

  it('shows a 404 page with the site navigation', async () => {
    const page = await e2e.newPage({ viewport: { width: 1440, height: 900 } });
    const res = await page.goto(`${home}no-such-page`);
    expect(res?.status()).toBe(404);
    expect(await page.textContent('main h1')).toBe('Page not found');
    await page.click('.sidebar a:has-text("Configuration")');
    expect(await page.textContent('main h1')).toBe('Configuration');
  });
});

describe('content', () => {
  it('renders GitBook blocks and highlighted code with a copy button', async () => {
    const page = await open(1440, 'light');
    expect(await page.locator('.hint.hint-info').textContent()).toContain('Node 20');
    expect(await page.locator('.hint.hint-warning').textContent()).toContain('secrets');
    // Tabs: one panel at a time, switched by the tab buttons.
    expect(await page.locator('.tablist [role=tab]').allTextContents()).toEqual(['npm', 'Docker']);
    expect(await page.locator('.tab:has-text("docker run")').isVisible()).toBe(false);
    await page.click('[role=tab]:has-text("Docker")');
    expect(await page.locator('.tab:has-text("docker run")').isVisible()).toBe(true);
    // Code is highlighted on the server: token spans with theme classes.
    expect(await page.locator('code.shiki .line span[class^="l"]').count()).toBeGreaterThan(3);
    expect(await page.locator('.code-title').textContent()).toBe('server.ts');
    expect(await page.locator('[data-testid=copy-code]').count()).toBe(3);
    expect(await page.locator('details.expandable summary').textContent()).toBe('What about Windows?');
    expect(await page.locator('.content-ref a').getAttribute('href')).toMatch(/\/configuration$/);
    expect(await page.locator('.embed a').getAttribute('href')).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    expect(await page.locator('input[type=checkbox][checked]').count()).toBe(1);
    expect(await page.locator('.cards .card-title').allTextContents()).toEqual(['Configure', 'Write']);
    expect(await page.locator('.cards .card-title a').last().getAttribute('href')).toMatch(/\/guides\/writing$/);
    await page.locator('.code-block').screenshot({ path: `${ARTIFACTS_DIR}/published-site-code.png` });
    await page.locator('.tabs').scrollIntoViewIfNeeded();
    await e2e.screenshot(page, 'published-site-blocks');
  });

  it('keeps the copy button off the code: shown on hover with a mouse, above the first line on touch', async () => {
    const desk = await open(1440, 'light');
    const wrap = desk.locator('.codewrap').first();
    await wrap.scrollIntoViewIfNeeded();
    const copy = wrap.locator('[data-testid=copy-code]');
    await desk.mouse.move(0, 0);
    expect(await copy.evaluate((b) => getComputedStyle(b).opacity)).toBe('0');
    await wrap.hover();
    await expect.poll(() => copy.evaluate((b) => getComputedStyle(b).opacity)).toBe('1');
    const phone = await e2e.newPage({ viewport: { width: 360, height: 800 }, hasTouch: true, isMobile: true });
    await phone.goto(home);
    const first = phone.locator('.codewrap').first();
    const button = await first.locator('[data-testid=copy-code]').boundingBox();
    const line = await first.locator('code .line').first().boundingBox();
    expect(button && line).toBeTruthy();
    // The button ends above the first line of code: nothing of the code is under it.
    expect(button!.y + button!.height).toBeLessThanOrEqual(line!.y + 1);
    expect(await first.locator('[data-testid=copy-code]').evaluate((b) => getComputedStyle(b).opacity)).toBe('1');
  });

  it('toggles the theme and remembers the choice', async () => {
    const page = await open(1440, 'light');
    await page.click('[data-testid=theme-toggle]');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 17, 21)');
  });

  it('is readable and navigable without JavaScript', async () => {
    const page = await open(360, 'light', false);
    expect(await page.textContent('main h1')).toBe('Getting started');
    // Tabs show stacked with their titles; the search and theme buttons (script-only) are not shown.
    expect(await page.locator('.tab-title').allTextContents()).toEqual(['npm', 'Docker']);
    expect(await page.locator('[data-testid=search-open]').isVisible()).toBe(false);
    // The menu link opens the drawer with :target.
    await page.click('[data-testid=site-menu]');
    expect(await page.locator('.sidebar').isVisible()).toBe(true);
    await page.click('.sidebar a:has-text("Configuration")');
    expect(await page.textContent('main h1')).toBe('Configuration');
    await e2e.screenshot(page, 'published-site-360-nojs');
  });

  it('keeps the HTML and CSS of a typical page under 60 kB', async () => {
    const res = await fetch(home);
    expect((await res.arrayBuffer()).byteLength).toBeLessThan(60 * 1024);
  });

  it('passes an axe-core scan with no serious or critical violations (light and dark)', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      // The site's CSP would refuse the injected axe script (as it refuses any script not its own).
      const page = await open(1440, scheme, true, true);
      const violations = seriousFindings(await axeScan(page));
      expect(violations, scheme).toEqual([]);
    }
  });
});

describe('search', () => {
  it('opens with / and Ctrl+K, finds a word of a body and jumps to its section', async () => {
    const page = await open(1440, 'light');
    await page.keyboard.press('/');
    await expect.poll(() => page.locator('[data-testid=search-dialog]').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await expect.poll(() => page.locator('[data-testid=search-dialog]').isVisible()).toBe(true);
    await page.keyboard.type('zeppelin');
    await expect.poll(() => page.locator('[data-testid=search-result]').count()).toBe(1);
    expect(await page.locator('[data-testid=search-result]').textContent()).toContain('Verify the install');
    await e2e.screenshot(page, 'published-site-search');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#verify-the-install');
    // Scrolled down to the section: its heading is in view (below the sticky header). The result may be
    // another document, scrolled to the heading while it loads.
    await page.waitForLoadState('load');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const box = await page
      .locator('#verify-the-install')
      .evaluate((el) => ({ top: el.getBoundingClientRect().top, bottom: el.getBoundingClientRect().bottom }));
    expect(box.top).toBeGreaterThanOrEqual(56);
    expect(box.bottom).toBeLessThanOrEqual(900);
  });

  it('says when nothing matches, and reaches another section from the keyboard', async () => {
    const page = await open(768, 'dark');
    await page.keyboard.press('/');
    await page.keyboard.type('nothingmatchesthis');
    await expect.poll(() => page.locator('dialog.search .empty').textContent()).toContain('No results');
    await page.fill('[data-testid=search-input]', 'REST');
    await expect.poll(() => page.locator('[data-testid=search-result]').count()).toBeGreaterThan(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('main h1')).toBe('Reference');
  });
});
