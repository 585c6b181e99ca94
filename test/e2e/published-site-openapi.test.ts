import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeScan, seriousFindings } from '../helpers/axe';
import { useChromium, ARTIFACTS_DIR } from '../helpers/browser';
import { editLive } from '../helpers/seed';
import { referenceSpec } from '../helpers/openapi-reference-spec';

/**
 * A published API reference page in real Chromium: an `openapi-operation` block drawn from a spec
 * processed by the compiled server's job runner, at desktop and phone widths in light and dark
 * (screenshots in test-artifacts/shots-openapi-reference/), without horizontal scrolling, its schema tree opening,
 * the curl sample with the site's copy button, and an axe-core scan.
 */
const e2e = useChromium({ env: { FOLIO_REVISION_QUIET_MS: '50' } });
const SHOTS = join(ARTIFACTS_DIR, 'shots-openapi-reference');
let url: string;

const PAGE = `Updates a pet in place. Send the whole pet: fields left out are cleared.

{% openapi-operation spec="petstore" path="/pets/{petId}" method="put" %}
[OpenAPI petstore](https://example.com/petstore.json)
{% endopenapi-operation %}

## Errors

A \`404\` means there is no pet with that id.
`;

beforeAll(async () => {
  const t = e2e.server;
  // As a real spec reads (the shared fixture's description also carries hostile HTML for the API tests).
  const spec = referenceSpec('Petstore');
  spec.paths['/pets/{petId}'].put.description =
    'Replaces a pet. Send the **whole** pet: fields left out are cleared. See <a href="https://example.com/pets">the pet model</a>.';
  const orgId = (await t.client.orgs.createOrganization({ title: 'Petstore Org' })).data.id;
  await t.client.orgs.createOpenApiSpec(orgId, {
    slug: 'petstore',
    source: { text: JSON.stringify(spec) },
  });
  // The server's job runner processes it (a worker thread parses it): wait for the outcome.
  for (let i = 0; ; i++) {
    const spec = (await t.client.orgs.getOpenApiSpecBySlug(orgId, 'petstore')).data;
    if (spec.processingState === 'complete' && spec.lastVersion) break;
    if (i > 300) throw new Error(`the spec was not processed: ${JSON.stringify(spec)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'API' })).data.id;
  await editLive(t, spaceId, (c) => {
    c.createPage({ title: 'Update a pet', description: 'PUT /pets/{petId}', slug: 'update-a-pet', markdown: PAGE });
  });
  const siteId = (await t.client.orgs.createSite(orgId, { title: 'Petstore API', spaces: [spaceId] })).data.id;
  await t.client.orgs.publishSite(orgId, siteId);
  url = `${t.url}/sites/${siteId}/`;
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);

async function open(width: number, height: number, colorScheme: 'light' | 'dark', bypassCSP = false): Promise<Page> {
  const page = await e2e.newPage({ viewport: { width, height }, colorScheme, bypassCSP });
  await page.goto(url);
  await page.locator('.openapi-operation').waitFor();
  return page;
}

describe('a published API reference page', () => {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const)
    for (const scheme of ['light', 'dark'] as const)
      it(`reads at ${width} px (${scheme}) without horizontal scrolling`, async () => {
        const page = await open(width, height, scheme);
        expect(await page.textContent('.oa-method')).toBe('PUT');
        expect(await page.textContent('.oa-path')).toBe('/pets/{petId}');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        // Open the owner's child attributes, as a reader would.
        await page.locator('.oa-nested > summary', { hasText: 'Show child attributes' }).first().click();
        await page.screenshot({ path: `${SHOTS}/reference-${width}-${scheme}.png`, fullPage: true });
        await page.locator('.openapi-operation').screenshot({ path: `${SHOTS}/block-${width}-${scheme}.png` });
      });

  it('gives the curl sample the site’s copy button, and opens responses', async () => {
    const page = await open(1280, 800, 'light');
    const request = page.locator('.oa-code', { hasText: 'curl' });
    expect(await request.locator('[data-testid=copy-code]').count()).toBe(1);
    expect(await request.locator('pre').innerText()).toContain(
      "--url 'https://api.example.com/v1/pets/{petId}?dryRun=false'",
    );
    const notFound = page.locator('details.oa-response', { hasText: 'No such pet' });
    expect(await notFound.getAttribute('open')).toBeNull();
    await notFound.locator('summary').click();
    await expect.poll(() => notFound.locator('.oa-response-body').isVisible()).toBe(true);
  });

  it('has no serious accessibility findings, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await open(1280, 800, scheme, true);
      // Everything open: collapsed content is scanned too.
      await page.evaluate(() =>
        document.querySelectorAll('.openapi-operation details').forEach((d) => d.setAttribute('open', '')),
      );
      expect(seriousFindings(await axeScan(page))).toEqual([]);
    }
  });
});
