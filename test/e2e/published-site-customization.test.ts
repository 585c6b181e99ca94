import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useChromium } from '../helpers/browser';
import { seedPages } from '../helpers/seed';

/**
 * A customized published site in real Chromium: the primary color in both
 * themes, the logo matching the theme, header links (a menu among them), at
 * desktop and phone widths, with screenshots kept in test-artifacts/. The
 * logos come from an https CDN, answered here by the browser's request
 * interception (the test runs offline).
 */
const e2e = useChromium();
let home: string;

const logo = (fill: string, text: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40"><rect width="40" height="40" rx="10" fill="${fill}"/><text x="50" y="27" font-family="sans-serif" font-size="18" font-weight="700" fill="${fill}">${text}</text></svg>`;

beforeAll(async () => {
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: 'Brand Org' })).data.id;
  const space = (await t.client.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
  await seedPages(t, space, [
    {
      title: 'Welcome',
      description: 'What Acme builds and how.',
      markdown:
        'Read the [setup guide](setup.md) first.\n\n## Principles\n\nShip small.\n\n' +
        // GitBook's image with a dark-mode variant.
        '<figure><picture><source srcset="https://cdn.example.com/dark.svg" media="(prefers-color-scheme: dark)">' +
        '<img src="https://cdn.example.com/light.svg" alt="Acme mark"></picture><figcaption><p>Our mark</p></figcaption></figure>\n\n' +
        '## Tools\n\nWe use Folio, and $$e^{i\\pi} + 1 = 0$$ inline.\n\n$$\nf(x) = \\int_{-\\infty}^{\\infty} \\hat f(\\xi)\\,e^{2 \\pi i \\xi x} \\,d\\xi\n$$\n',
    },
    { title: 'Setup', slug: 'setup', markdown: 'Install things.\n' },
  ]);
  const siteId = (await t.client.orgs.createSite(orgId, { title: 'Handbook', spaces: [space] })).data.id;
  await t.client.orgs.updateSiteCustomizationById(orgId, siteId, {
    title: 'Acme Handbook',
    styling: { primaryColor: { light: '#b4236e', dark: '#ff8ac6' } },
    favicon: { emoji: '🦊' },
    header: {
      logo: { light: 'https://cdn.example.com/light.svg', dark: 'https://cdn.example.com/dark.svg' },
      links: [
        { title: 'Blog', to: { kind: 'url', url: 'https://blog.example.com/' }, links: [] },
        {
          title: 'Company',
          to: null,
          links: [
            { title: 'About', to: { kind: 'url', url: 'https://example.com/about' } },
            { title: 'Careers', to: { kind: 'url', url: 'https://example.com/careers' } },
          ],
        },
        {
          title: 'Sign up',
          style: 'button-primary',
          to: { kind: 'url', url: 'https://example.com/signup' },
          links: [],
        },
      ],
    },
  } as never);
  await t.client.orgs.publishSite(orgId, siteId);
  home = `${t.url}/sites/${siteId}/`;
});

async function open(width: number, colorScheme: 'light' | 'dark'): Promise<Page> {
  const page = await e2e.newPage({ viewport: { width, height: width < 600 ? 844 : 800 }, colorScheme });
  await page.route('https://cdn.example.com/*', (route) =>
    route.fulfill({
      contentType: 'image/svg+xml',
      body: route.request().url().endsWith('dark.svg') ? logo('#ff8ac6', 'ACME') : logo('#b4236e', 'ACME'),
    }),
  );
  await page.goto(home);
  return page;
}

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

describe('customized published site', () => {
  for (const scheme of ['light', 'dark'] as const)
    for (const width of [1280, 390])
      it(`shows the brand at ${width} px (${scheme})`, async () => {
        const page = await open(width, scheme);
        expect(await page.title()).toBe('Welcome | Acme Handbook');
        // The primary color of the current scheme colors links of the content.
        const color = await page
          .locator('article a')
          .first()
          .evaluate((a) => getComputedStyle(a).color);
        expect(color).toBe(rgb(scheme === 'dark' ? '#ff8ac6' : '#b4236e'));
        // The logo of the current scheme is the one shown, and it loaded.
        const shown = page.locator(`.site img.logo-${scheme}`);
        expect(await shown.isVisible()).toBe(true);
        expect(await page.locator(`.site img.logo-${scheme === 'dark' ? 'light' : 'dark'}`).isVisible()).toBe(false);
        expect(await shown.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
        // The content image shows its variant for the scheme, and only that one.
        expect(await page.locator(`figure img.only-${scheme}`).isVisible()).toBe(true);
        expect(await page.locator(`figure img.only-${scheme === 'dark' ? 'light' : 'dark'}`).isVisible()).toBe(false);
        expect(await page.locator('.site').getAttribute('href')).toBeTruthy();
        expect(await page.locator('[data-testid=header-links] a:has-text("Blog")').isVisible()).toBe(true);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        // Math is MathML drawn by the browser: the display formula has a height of its own.
        expect(
          await page.locator('.math-display math').evaluate((m) => m.getBoundingClientRect().height),
        ).toBeGreaterThan(20);
        await e2e.screenshot(page, `published-site-custom-${width}-${scheme}`);
      });

  it('opens a header menu and follows the theme toggle with the logo', async () => {
    const page = await open(1280, 'light');
    await page.click('[data-testid=header-links] summary:has-text("Company")');
    expect(await page.locator('[data-testid=header-links] a:has-text("Careers")').isVisible()).toBe(true);
    await e2e.screenshot(page, 'published-site-custom-menu');
    await page.keyboard.press('Escape');
    await page.click('[data-testid=theme-toggle]');
    await expect.poll(() => page.locator('.site img.logo-dark').isVisible()).toBe(true);
    expect(await page.locator('.site img.logo-light').isVisible()).toBe(false);
    expect(await page.locator('figure img.only-dark').isVisible()).toBe(true);
    expect(await page.locator('figure img.only-light').isVisible()).toBe(false);
  });
});
