import { screenshotEveryWay } from '../helpers/screenshots';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openApiSource } from '../../shared/doc/computed';
import { axeScan, seriousFindings } from '../helpers/axe';
import { useChromium, ARTIFACTS_DIR } from '../helpers/browser';
import { newMember, type Person } from '../helpers/people';
import { editLive } from '../helpers/seed';
import { openPageId, openSpaceThroughUi } from '../helpers/web-app';

/**
 * API reference pages (computed pages) in the app, against the compiled server with a spec its job
 * runner processed: a writer creates one through "API reference from an OpenAPI spec…", sees the
 * page marked in the tree (no "New sub-page"), its explanation, settings and a preview listing the
 * tag pages; switching to a page per operation changes the preview, and the space's REST pages
 * show the generated pages once the revision is saved. A reader sees the same without any control;
 * a missing and a failed spec are said plainly; an organization without specs is told where to add
 * one. Screenshots (1280x800 and 390x844, light and dark) go to test-artifacts/shots-computed-pages/,
 * and axe finds nothing serious or critical.
 */

const e2e = useChromium({ app: true, people: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });
const SHOTS = join(ARTIFACTS_DIR, 'shots-computed-pages');
const shots = (page: Page, name: string, scrollTo?: string) =>
  screenshotEveryWay(page, join(SHOTS, name), {
    prepare: (width) =>
      scrollTo && width > 720 ? page.getByTestId(scrollTo).scrollIntoViewIfNeeded() : Promise.resolve(),
  });

/** Polls with a deadline that suits a loaded machine (processing and revisions run in the background). */
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 20_000, interval: 200 });

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Pet Store', version: '1.0.0', description: 'Everything about pets.' },
  servers: [{ url: 'https://api.example.com/v1' }],
  tags: [
    { name: 'pets', 'x-displayName': 'Pets', description: 'Adopt and care for pets.' },
    { name: 'stores', description: 'Where pets live.' },
  ],
  paths: {
    '/pets': {
      get: {
        tags: ['pets'],
        operationId: 'listPets',
        summary: 'List pets',
        responses: { '200': { description: 'ok' } },
      },
      post: {
        tags: ['pets'],
        operationId: 'createPet',
        summary: 'Create a pet',
        responses: { '201': { description: 'ok' } },
      },
    },
    '/stores/{id}': {
      get: {
        tags: ['stores'],
        summary: 'Get a store',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: { schemas: { Pet: { type: 'object', properties: { name: { type: 'string' } } } } },
};

let orgId: string;
let spaceId: string;
let writer: Person;
let reader: Person;
let computedId = '';
let lastPage: Page | undefined;

interface RestPage {
  title: string;
  type: string;
  pages?: RestPage[];
}

/** Titles of a page list, with the titles of the pages under each (GitBook's nesting). */
const titles = (pages: readonly RestPage[]): unknown[] =>
  pages.map((p) => (p.pages?.length ? [p.title, titles(p.pages)] : p.title));

async function restTitles(): Promise<unknown[]> {
  const res = await fetch(`${e2e.server.url}/v1/spaces/${spaceId}/content/pages`, {
    headers: { authorization: `Bearer ${e2e.server.adminToken}` },
  });
  return titles(((await res.json()) as { pages: RestPage[] }).pages);
}

/** Waits until the server has processed the spec (its job runner parses it in a worker). */
async function processed(slug: string): Promise<{ lastVersion?: string; lastProcessErrorCode?: string }> {
  for (let i = 0; ; i++) {
    const spec = (await e2e.server.client.orgs.getOpenApiSpecBySlug(orgId, slug)).data;
    if (spec.processingState === 'complete') return spec;
    if (i > 300) throw new Error(`the spec ${slug} was not processed: ${JSON.stringify(spec)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function open(token: string, options: { bypassCSP?: boolean } = {}): Promise<Page> {
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, ...options });
  page.setDefaultTimeout(15_000);
  lastPage = page;
  await openSpaceThroughUi(page, e2e.server.url, token, spaceId);
  return page;
}

/**
 * `<name>-<width>-<scheme>.png` at desktop and phone sizes, light and dark; leaves the page 1280
 * wide and light. `scrollTo` (a test id) is scrolled into view first at desktop width: the page
 * view scrolls inside itself there, so a full-page picture shows only what is in view (on a phone
 * the whole page scrolls, and the picture holds it all).
 */

async function axeFindings(page: Page): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(300);
    found.push(...seriousFindings(await axeScan(page)).map((line) => `${scheme}: ${line}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

const previewTitles = (page: Page) => page.getByTestId('ar-preview-title').allTextContents();

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !lastPage || lastPage.isClosed()) return;
  await e2e.screenshot(lastPage, `computed-failure-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`);
  console.log('FAILED AT', lastPage.url(), (await lastPage.locator('body').innerText()).slice(0, 2000));
});

beforeAll(async () => {
  const t = e2e.server;
  orgId = (await t.client.orgs.createOrganization({ title: 'Pet Store Inc' })).data.id;
  await t.client.orgs.createOpenApiSpec(orgId, { slug: 'pets', source: { text: JSON.stringify(SPEC) } });
  expect((await processed('pets')).lastVersion).toBeTruthy();
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Developer docs' })).data.id;
  await editLive(t, spaceId, (c) => c.createPage({ title: 'Welcome', markdown: 'Hello.\n' }));
  writer = await newMember(t, orgId, 'edit', 'Wendy Writer');
  reader = await newMember(t, orgId, 'read', 'Rita Reader');
}, 120_000);

describe('API reference pages in the app', () => {
  it('a writer creates one from a spec, previews its pages, changes the layout, and REST serves them', async () => {
    const page = await open(writer.token, { bypassCSP: true });
    await page.getByTestId('new-page-menu').click();
    await page.getByTestId('new-api-reference').waitFor();
    await shots(page, 'add-menu');
    await page.getByTestId('new-api-reference').click();
    const dialog = page.getByTestId('new-api-reference-dialog');
    await dialog.waitFor();
    // The organization's spec is chosen for the writer; the defaults are a page per tag, with models.
    await poll(() => page.getByTestId('ar-spec').inputValue()).toBe('pets');
    expect(await page.getByTestId('ar-title').inputValue()).toBe('API reference');
    expect(await page.getByTestId('ar-grouping-by-tag').isChecked()).toBe(true);
    expect(await page.getByTestId('ar-models').isChecked()).toBe(true);
    await shots(page, 'dialog');
    expect(await axeFindings(page)).toEqual([]);

    await page.getByTestId('ar-create').click();
    await page.getByTestId('computed-page-view').waitFor();
    computedId = openPageId(page);
    expect(await page.getByTestId('page-title').textContent()).toBe('API reference');
    expect(await page.getByTestId('ar-explanation').innerText()).toContain(
      'Generated from the OpenAPI spec “pets”. Its pages are made from the spec’s latest version',
    );
    // No editor for a page without text of its own.
    expect(await page.getByTestId('editor').count()).toBe(0);
    await poll(() => previewTitles(page)).toEqual(['Pets', 'stores', 'Models']);
    expect(await page.getByTestId('ar-preview-operations').allTextContents()).toEqual(['2 operations', '1 operation']);
    expect(await page.getByTestId('ar-preview-summary').textContent()).toBe('3 pages · 3 operations');

    // The tree marks it, at the root, and offers no sub-page under it.
    const row = page.locator(`[data-testid=tree-row][data-page-id="${computedId}"]`);
    expect(await row.getByTestId('tree-computed').count()).toBe(1);
    expect(await row.getAttribute('aria-label')).toBe('API reference, generated from an OpenAPI spec');
    await row.hover();
    expect(await row.getByRole('button', { name: 'Rename API reference' }).count()).toBe(1);
    expect(await row.getByRole('button', { name: 'New sub-page of API reference' }).count()).toBe(0);
    await shots(page, 'page-writer');
    await shots(page, 'page-writer-preview', 'ar-preview');
    expect(await axeFindings(page)).toEqual([]);

    // REST serves the generated pages under it once the revision is saved.
    await poll(() => restTitles()).toEqual(['Welcome', ['API reference', ['Pets', 'stores', 'Models']]]);

    // A page per operation, without models: the preview follows, and so does the space.
    await page.getByTestId('ar-grouping-by-operation').check();
    await page.getByTestId('ar-models').uncheck();
    await poll(() => page.getByTestId('ar-preview-subpage').allTextContents()).toEqual([
      'List pets',
      'Create a pet',
      'Get a store',
    ]);
    // The two changes refresh the preview one after the other: wait for the second (without models).
    await poll(() => previewTitles(page)).toEqual(['Pets', 'stores']);
    await poll(() => restTitles()).toEqual([
      'Welcome',
      [
        'API reference',
        [
          ['Pets', ['List pets', 'Create a pet']],
          ['stores', ['Get a store']],
        ],
      ],
    ]);
    await shots(page, 'page-by-operation', 'ar-preview');
  });

  it('a reader sees the page, its settings and its pages, without any control', async () => {
    expect(computedId).not.toBe('');
    const page = await open(reader.token);
    await page.locator(`[data-testid=tree-row][data-page-id="${computedId}"]`).click();
    await page.getByTestId('computed-page-view').waitFor();
    await poll(() => page.getByTestId('ar-preview-subpage').allTextContents()).toEqual([
      'List pets',
      'Create a pet',
      'Get a store',
    ]);
    // The space's permissions say the reader may not edit: the settings are text, and no control shows.
    await poll(() => page.getByTestId('ar-settings-summary').isVisible()).toBe(true);
    expect(await page.getByTestId('ar-settings-summary').innerText()).toContain('A page per operation');
    // Until the space's permissions load, the socket's "editable" stands and the controls may show.
    await poll(() => page.getByTestId('new-page-menu').count()).toBe(0);
    await poll(() => page.getByTestId('ar-spec').count()).toBe(0);
    await poll(() => page.getByTestId('ar-grouping-by-tag').count()).toBe(0);
    await poll(() => page.getByTestId('ar-models').count()).toBe(0);
    await shots(page, 'page-reader', 'ar-preview');
  });

  it('says when the spec is missing or failed, and where to fix it', async () => {
    // A spec whose source cannot be fetched (loopback is refused to the outbound fetcher): failed, no version.
    await e2e.server.client.orgs.createOpenApiSpec(orgId, {
      slug: 'broken',
      source: { url: 'http://127.0.0.1:9/never.json' },
    });
    expect((await processed('broken')).lastProcessErrorCode).toBeTruthy();
    const [gone, broken] = await editLive(e2e.server, spaceId, (c) => [
      c.createPage({ title: 'Old API', kind: 'computed', computed: openApiSource('nope', { models: false }) }),
      c.createPage({ title: 'Broken API', kind: 'computed', computed: openApiSource('broken', { models: false }) }),
    ]);

    const page = await open(writer.token);
    await page.locator(`[data-testid=tree-row][data-page-id="${gone}"]`).click();
    const problem = page.getByTestId('ar-preview-problem');
    await poll(() => problem.getAttribute('data-kind')).toBe('missing');
    expect(await problem.innerText()).toContain('This organization has no OpenAPI spec “nope”');
    // The link needs the space's organization, which its store may load after the preview answered.
    await poll(() => problem.getByTestId('ar-specs-link').count()).toBe(1);
    // The missing spec stays chosen in the settings, said as such.
    expect(await page.getByTestId('ar-spec').inputValue()).toBe('nope');
    await shots(page, 'page-missing-spec');

    await page.locator(`[data-testid=tree-row][data-page-id="${broken}"]`).click();
    await poll(() => problem.getAttribute('data-kind')).toBe('failed');
    expect(await problem.innerText()).toContain('could not be processed');
    // Choosing a spec that works brings the pages.
    await page.getByTestId('ar-spec').selectOption('pets');
    await poll(() => previewTitles(page)).toEqual(['Pets', 'stores']);
  });

  it('tells a writer whose organization has no spec where to add one', async () => {
    const t = e2e.server;
    const emptyOrg = (await t.client.orgs.createOrganization({ title: 'No APIs' })).data.id;
    const emptySpace = (await t.client.orgs.createSpace(emptyOrg, { title: 'Guides' })).data.id;
    const page = await e2e.newPage({ viewport: { width: 1280, height: 800 } });
    lastPage = page;
    await openSpaceThroughUi(page, t.url, t.adminToken, emptySpace);
    await page.getByTestId('new-page-menu').click();
    await page.getByTestId('new-api-reference').click();
    await page.getByTestId('ar-no-specs').waitFor();
    expect(await page.getByTestId('ar-create').isDisabled()).toBe(true);
    await shots(page, 'dialog-no-specs');
    await page.getByTestId('ar-specs-link').click();
    await page.getByTestId('specs-screen').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/app/o/${emptyOrg}/openapi`);
  });
});
