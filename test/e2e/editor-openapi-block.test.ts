import { screenshotEveryWay } from '../helpers/screenshots';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useChromium, ARTIFACTS_DIR } from '../helpers/browser';
import { axeScan, seriousFindings } from '../helpers/axe';
import { createPageThroughUi, openPageId, openSpaceThroughUi } from '../helpers/web-app';

/**
 * API operation blocks in the editor: a writer inserts one from the `/` menu, fills in the spec,
 * and the markdown holds GitBook's exact block (read back over REST); with the cursor elsewhere the
 * block shows as a card with its method, path and spec. Screenshots go to test-artifacts/shots-editor-openapi/.
 */

const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });
const SHOTS = join(ARTIFACTS_DIR, 'shots-editor-openapi');
const shots = (page: Page, name: string) => screenshotEveryWay(page, join(SHOTS, name), { fullPage: false });
let orgId: string;

beforeAll(async () => {
  orgId = (await e2e.server.client.orgs.createOrganization({ title: 'API docs' })).data.id;
});

async function restMarkdown(spaceId: string, pageId: string): Promise<string> {
  const page = (await e2e.server.client.spaces.getPageById(spaceId, pageId, { format: 'markdown' })).data as {
    markdown?: string;
  };
  return page.markdown ?? '';
}

describe('API operation blocks in the editor', () => {
  it('inserts a block from the / menu, writes the exact markdown and shows it as a card', async () => {
    const t = e2e.server;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Reference' })).data.id;
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await createPageThroughUi(page, 'Pets API');
    await expect.poll(() => page.getByTestId('authoring-toolbar').isVisible()).toBe(true);
    const pageId = openPageId(page);
    await page.getByTestId('editor-content').click();
    await page.keyboard.type('List the pets:');
    await page.keyboard.press('Enter');

    await page.keyboard.type('/api');
    const first = page.locator('.cm-tooltip-autocomplete li').first();
    await expect.poll(() => first.textContent()).toContain('API operation');
    await page.keyboard.press('Enter');
    // The spec placeholder is selected: typing replaces it.
    await page.keyboard.type('petstore');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('After the block.');

    const block = '{% openapi-operation spec="petstore" path="/path" method="get" %}\n{% endopenapi-operation %}';
    await expect.poll(() => restMarkdown(spaceId, pageId), { timeout: 15_000 }).toContain(block);

    const card = page.getByTestId('lp-api-operation');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.locator('.folio-api-method').textContent()).toBe('GET');
    expect(await card.locator('.folio-api-path').textContent()).toBe('/path');
    expect(await card.locator('.folio-api-spec').textContent()).toBe('petstore');
    await shots(page, 'editor-card');

    const found: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(300);
      found.push(...seriousFindings(await axeScan(page)).map((line) => `${scheme}: ${line}`));
    }
    expect(found).toEqual([]);
  });
});
