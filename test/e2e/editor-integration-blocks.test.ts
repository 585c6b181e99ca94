import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { raw } from '../helpers/api';
import { useChromium, ARTIFACTS_DIR } from '../helpers/browser';
import { startIntegrationTunnel, type IntegrationTunnel, type ReceivedDispatch } from '../helpers/integration-tunnel';
import { screenshotEveryWay } from '../helpers/screenshots';
import { createPageThroughUi, openPageId, openSpaceThroughUi } from '../helpers/web-app';

/**
 * Integration blocks in the editor (issue 32): the `/` menu lists the blocks of the integrations
 * installed on the space under "Integrations"; choosing one writes its tag (read back over REST);
 * with the cursor elsewhere the live preview shows what the integration's script renders (a
 * development tunnel on 127.0.0.1 answering `ui_render`), and a button's action renders it again
 * with its state. Screenshots go to test-artifacts/shots-editor-integration-blocks/.
 */

const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '50', FOLIO_OUTBOUND_ALLOW: '127.0.0.1' } });
const SHOTS = join(ARTIFACTS_DIR, 'shots-editor-integration-blocks');
const shots = (page: Page, name: string) =>
  screenshotEveryWay(page, join(SHOTS, name), { fullPage: false, atRest: true });
let tunnel: IntegrationTunnel;
let orgId = '';
let spaceId = '';
const NAME = 'counter';

/** The integration's script: a counter block whose button adds one (state kept by the editor). */
function answer(d: ReceivedDispatch) {
  if (d.event.type !== 'ui_render') return { status: 200, body: 'OK' };
  const state = (d.event.state ?? {}) as { count?: number };
  const action = d.event.action as { action?: string } | undefined;
  const count = (state.count ?? 0) + (action?.action === 'add' ? 1 : 0);
  const output = {
    type: 'element',
    state: { count },
    props: d.event.props,
    element: {
      type: 'block',
      children: [
        {
          type: 'hstack',
          align: 'center',
          children: [
            { type: 'box', grow: 1, children: [{ type: 'text', style: 'bold', children: `Clicked ${count} times` }] },
            { type: 'button', style: 'primary', label: 'Add one', onPress: { action: 'add' } },
          ],
        },
        { type: 'markdown', content: 'Rendered by the **counter** integration.' },
        { type: 'hint', children: [{ type: 'text', children: 'Counts are kept in the block state.' }] },
      ],
    },
  };
  return { status: 200, body: JSON.stringify(output), headers: { 'content-type': 'application/json' } };
}

beforeAll(async () => {
  const t = e2e.server;
  tunnel = await startIntegrationTunnel();
  tunnel.answers.push(...Array.from({ length: 200 }, () => answer));
  orgId = (await t.client.orgs.createOrganization({ title: 'Blocks' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  const publish = await raw(t, 'POST', `/v1/integrations/${NAME}`, {
    token: t.adminToken,
    body: {
      title: 'Counter',
      description: 'Counts clicks',
      scopes: [],
      script: 'export default {}',
      organization: orgId,
      target: 'all',
      visibility: 'public',
      blocks: [{ id: 'clicks', title: 'Click counter', description: 'A button that counts' }],
    },
  });
  expect(publish.status, JSON.stringify(publish.body)).toBeLessThan(300);
  expect(
    (await raw(t, 'PUT', `/v1/integrations/${NAME}/dev`, { token: t.adminToken, body: { tunnelUrl: tunnel.url } }))
      .status,
  ).toBe(204);
  const installation = (await t.client.integrations.installIntegration(NAME, { organization: orgId })).data;
  await t.client.integrations.installIntegrationOnSpace(NAME, installation.id, { space: spaceId });
});
afterAll(async () => {
  await tunnel?.close();
});

async function restMarkdown(pageId: string): Promise<string> {
  const page = (await e2e.server.client.spaces.getPageById(spaceId, pageId, { format: 'markdown' })).data as {
    markdown?: string;
  };
  return page.markdown ?? '';
}

describe('integration blocks in the editor', () => {
  it('lists installed blocks in the / menu, inserts the tag and shows the rendered block', async () => {
    const t = e2e.server;
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await createPageThroughUi(page, 'Counting');
    await expect.poll(() => page.getByTestId('authoring-toolbar').isVisible()).toBe(true);
    const pageId = openPageId(page);
    await page.getByTestId('editor-content').click();
    await page.keyboard.type('A counter:');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');

    await page.keyboard.type('/click');
    const option = page.locator('.cm-tooltip-autocomplete li', { hasText: 'Click counter' });
    await expect.poll(() => option.count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator('.cm-tooltip-autocomplete completion-section').allTextContents()).toContain(
      'Integrations',
    );
    // The menu open, every way (not at rest: blurring the editor would close it).
    await screenshotEveryWay(page, join(SHOTS, 'slash-menu'), { fullPage: false });
    // Resizing may have closed it: the query typed again opens it again.
    await page.getByTestId('editor-content').locator('.cm-line', { hasText: '/click' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('k');
    await expect.poll(() => option.count(), { timeout: 10_000 }).toBe(1);
    await page.locator('.cm-tooltip-autocomplete li', { hasText: 'Click counter' }).click();
    await page.keyboard.type('After the block.');

    await expect.poll(() => restMarkdown(pageId), { timeout: 15_000 }).toContain('{% @counter/clicks %}');

    const block = page.getByTestId('lp-integration-block');
    await expect.poll(() => block.textContent(), { timeout: 15_000 }).toContain('Clicked 0 times');
    expect(await block.locator('.ck-markdown strong').textContent()).toBe('counter');
    await shots(page, 'rendered-block');

    await block.getByRole('button', { name: 'Add one' }).click();
    await expect.poll(() => block.textContent(), { timeout: 15_000 }).toContain('Clicked 1 times');
    await block.getByRole('button', { name: 'Add one' }).click();
    await expect.poll(() => block.textContent(), { timeout: 15_000 }).toContain('Clicked 2 times');
    // The second click sent the state the first render returned.
    const actions = tunnel.ofType('ui_render').filter((d) => d.event.action);
    expect(actions.at(-1)?.event).toMatchObject({
      componentId: 'clicks',
      state: { count: 1 },
      action: { action: 'add' },
    });
    // The markdown did not change: interactions live in the block's state, not in the page.
    expect(await restMarkdown(pageId)).toContain('{% @counter/clicks %}\n');
  });

  it('shows the block on the published site, in the site’s look', async () => {
    const t = e2e.server;
    const siteId = (await t.client.orgs.createSite(orgId, { title: 'Counting Site', spaces: [spaceId] })).data.id;
    await t.client.orgs.publishSite(orgId, siteId);
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    await expect
      .poll(
        async () => {
          await page.goto(`${t.url}/sites/${siteId}/`);
          return page.locator('.folio-ck').count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    const block = page.locator('.folio-ck');
    expect(await block.textContent()).toContain('Clicked 0 times');
    // Read-only on the site: the button does nothing there.
    expect(await block.getByRole('button', { name: 'Add one' }).isDisabled()).toBe(true);
    await screenshotEveryWay(page, join(SHOTS, 'published-block'), { fullPage: false });
  });
});
