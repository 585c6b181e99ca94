import { beforeAll, expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { editLive } from '../helpers/seed';

/** A published site in real Chromium: navigation works, the CSP blocks nothing of ours, and a screenshot is kept. */
// The pages are written as the app writes them (over the sync socket: a page group is not a REST
// change); a short quiet period makes them a revision at once.
const e2e = useChromium({ env: { FOLIO_REVISION_QUIET_MS: '50' } });
let siteId: string;
beforeAll(async () => {
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: 'E2E Sites' })).data.id;
  const guide = (await t.client.orgs.createSpace(orgId, { title: 'Guide' })).data.id;
  const api = (await t.client.orgs.createSpace(orgId, { title: 'API' })).data.id;
  await editLive(t, guide, (c) => {
    const intro = c.createPage({
      title: 'Getting started',
      description: 'Install Folio and publish your first site.',
      markdown:
        '## Install\n\n```sh\nnpm install && npm start\n```\n\nThen read [Configuration](/pages/CONFIG).\n\n| Setting | Default |\n|---|---|\n| port | 8080 |\n\n> Tip: sites are HTML, without scripts.\n',
    });
    c.createPage({
      id: 'CONFIG',
      title: 'Configuration',
      slug: 'configuration',
      markdown: 'Every setting is an environment variable.\n',
    });
    const group = c.createPage({ title: 'Guides', kind: 'group', slug: 'guides' });
    c.createPage({ title: 'Writing pages', parent: group, slug: 'writing', markdown: 'Write markdown.\n' });
    void intro;
  });
  await editLive(t, api, (c) => void c.createPage({ title: 'Reference', markdown: 'The REST API.\n' }));
  siteId = (await t.client.orgs.createSite(orgId, { title: 'Folio Docs', spaces: [guide] })).data.id;
  await t.client.orgs.addSectionToSite(orgId, siteId, { spaceId: api, title: 'API reference' });
  await t.client.orgs.publishSite(orgId, siteId);
});

it('renders a published page in Chromium and navigates between pages', async () => {
  const page = await e2e.newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(`${e2e.server.url}/sites/${siteId}/`);
  expect(await page.textContent('main h1')).toBe('Getting started');
  expect(await page.locator('nav.sections a').allTextContents()).toEqual(['Folio Docs', 'API reference']);
  // The stylesheet applied (allowed by its CSP hash): the sidebar has its fixed width.
  expect(await page.locator('aside').evaluate((el) => getComputedStyle(el).width)).toBe('272px');
  await e2e.screenshot(page, 'published-site');
  // A click waits at most for the next page to start loading: its heading is waited for.
  await page.click('main a:has-text("Configuration")');
  await expect.poll(() => page.textContent('main h1'), { timeout: 15_000 }).toBe('Configuration');
  await page.click('nav.sections a:has-text("API reference")');
  await expect.poll(() => page.textContent('main h1'), { timeout: 15_000 }).toBe('Reference');
  expect(violations).toEqual([]);
});
