import { screenshotEveryWay } from '../helpers/screenshots';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeBothSchemes } from '../helpers/axe';
import { useChromium, ARTIFACTS_DIR } from '../helpers/browser';
import { exportZip, startSiteServer, type SiteServer } from '../helpers/import-site-server';
import { newMember } from '../helpers/people';
import { waitFor } from '../helpers/wait';
import { fillTokenSignIn } from '../helpers/web-app';

/**
 * "Import…" on a space in the app, against the compiled server: a writer imports a small local
 * website and a GitBook export .zip (chosen with the file input) and sees the pages appear in the
 * tree without reloading (the space's document syncs them); while a slow site is read, the dialog
 * says "x of y pages" over a bar that fills (the site holds each page until the test releases it);
 * a URL the server refuses shows its words in the dialog, which stays open; a run the fetcher
 * refuses ends failed with its reason; a reader has no "Import…". Screenshots (1280x800 and 390x844, light and dark) go to
 * test-artifacts/shots-import/, and axe finds nothing serious or critical.
 */

// The site is on loopback, which the outbound fetcher refuses unless allowed.
const e2e = useChromium({ app: true, people: true, env: { FOLIO_OUTBOUND_ALLOW: '127.0.0.1' } });

const SHOTS = join(ARTIFACTS_DIR, 'shots-import');
const shots = (page: Page, name: string) => screenshotEveryWay(page, join(SHOTS, name));
/** The import runs as a job on a loaded machine: generous deadlines. */
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 60_000, interval: 250 });

let site: SiteServer;
let orgId = '';
let writerToken = '';
let readerToken = '';
let lastPage: Page | undefined;

async function newSpace(title: string): Promise<string> {
  return (await e2e.server.client.orgs.createSpace(orgId, { title })).data.id;
}

async function openSpace(token: string, spaceId: string, width = 1280, height = 800): Promise<Page> {
  // bypassCSP: axe is injected as an inline script, which the app's own policy rightly forbids.
  const page = await e2e.newPage({ viewport: { width, height }, bypassCSP: true });
  page.setDefaultTimeout(20_000);
  lastPage = page;
  await page.goto(`${e2e.server.url}/app/s/${spaceId}`);
  await fillTokenSignIn(page, e2e.server.url, token);
  await page.getByTestId('page-tree').waitFor();
  return page;
}

const treeTitles = (page: Page) => page.locator('[data-testid=tree-row]').allInnerTexts();

async function openImport(page: Page): Promise<void> {
  await page.getByTestId('space-actions').click();
  await page.getByTestId('action-import').click();
  await page.getByTestId('import-dialog').waitFor();
}

/** `<name>-<width>-<scheme>.png` at desktop and phone sizes, light and dark; leaves the page 1280 wide and light. */

beforeAll(async () => {
  site = await startSiteServer();
  orgId = (await e2e.server.client.orgs.createOrganization({ title: 'Import Org' })).data.id;
  writerToken = (await newMember(e2e.server, orgId, 'create', 'Wendy Writer')).token;
  readerToken = (await newMember(e2e.server, orgId, 'read', 'Rita Reader')).token;
}, 120_000);

afterAll(async () => {
  await site?.close();
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !lastPage || lastPage.isClosed()) return;
  await e2e.screenshot(lastPage, `import-failure-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`);
  console.log('FAILED AT', lastPage.url(), (await lastPage.locator('body').innerText()).slice(0, 2000));
});

describe('Import… on a space', () => {
  it('imports a local website: progress, then the result, and the pages appear in the tree', async () => {
    const spaceId = await newSpace('Website import');
    const page = await openSpace(writerToken, spaceId);
    expect(await treeTitles(page)).toEqual([]);
    await openImport(page);
    await page.getByTestId('import-url').fill(`${site.url}/`);
    await shots(page, 'choose-website');
    expect(await axeBothSchemes(page, 'choose')).toEqual([]);
    await page.getByTestId('import-start').click();
    await page.getByTestId('import-progress').waitFor();
    await poll(() => page.getByTestId('import-progress').getAttribute('data-status')).toBe('completed');
    await expect(page.getByTestId('import-result').innerText()).resolves.toMatch(/Import finished: \d+ pages imported/);
    await shots(page, 'result-website');
    expect(await axeBothSchemes(page, 'result')).toEqual([]);
    await page.getByTestId('import-close').click();
    await expect(page.getByTestId('import-dialog').count()).resolves.toBe(0);
    // The pages come through the space's document: no reload.
    await poll(async () => (await treeTitles(page)).join('|')).toMatch(/Welcome|Home/);
    await poll(async () => (await treeTitles(page)).join('|')).toMatch(/Guide/);
    await shots(page, 'tree-after-website');
  });

  it('says "x of y pages" over a filling bar while it reads a slow site, then what it skipped', async () => {
    const spaceId = await newSpace('Paced import');
    const page = await openSpace(writerToken, spaceId);
    await openImport(page);
    await page.getByTestId('import-url').fill(`${site.url}/paced/`);
    await page.getByTestId('import-start').click();
    await page.getByTestId('import-progress').waitFor();
    const status = () => page.getByTestId('import-status').innerText();
    // position is -1 for a busy (indeterminate) bar.
    const bar = () =>
      page
        .getByTestId('import-bar')
        .evaluate((el: HTMLProgressElement) => [el.position === -1 ? 'busy' : el.value, el.max]);
    const fetching = (path: string) => waitFor(() => site.held().includes(path), 60_000, `the run to fetch ${path}`);

    // The start page is being fetched: nothing is counted yet.
    await fetching('/paced/');
    await poll(status).toBe('Importing…');
    expect((await bar())[0]).toBe('busy');
    site.release('/paced/');
    await fetching('/paced/1');
    await poll(status).toBe('Importing… 1 of 6 pages');
    expect(await bar()).toEqual([1, 6]);
    await shots(page, 'running-counts');
    expect(await axeBothSchemes(page, 'running')).toEqual([]);
    site.release('/paced/1');
    site.release('/paced/2');
    await fetching('/paced/3');
    // /paced/2 links to one more page: the total grows as the crawl finds pages.
    await poll(status).toBe('Importing… 3 of 7 pages');
    expect(await bar()).toEqual([3, 7]);
    site.release('/paced');
    await poll(() => page.getByTestId('import-progress').getAttribute('data-status')).toBe('completed');
    await expect(page.getByTestId('import-result').innerText()).resolves.toBe(
      'Import finished: 6 pages imported, 1 skipped.',
    );
    await expect(page.getByTestId('import-skipped').innerText()).resolves.toContain(`${site.url}/paced/gone`);
    await shots(page, 'result-skipped');
  });

  it('imports a GitBook export .zip chosen with the file input', async () => {
    const dir = join(tmpdir(), `folio-import-${process.pid}`);
    await mkdir(dir, { recursive: true });
    const zipPath = join(dir, 'export.zip');
    await writeFile(zipPath, exportZip());
    const spaceId = await newSpace('Zip import');
    const page = await openSpace(writerToken, spaceId, 390, 844);
    await openImport(page);
    await page.getByTestId('import-kind-files').check();
    await page.getByTestId('import-files').setInputFiles(zipPath);
    await expect(page.getByTestId('import-file-list').innerText()).resolves.toContain('export.zip');
    await shots(page, 'choose-files');
    expect(await axeBothSchemes(page, 'files')).toEqual([]);
    await page.getByTestId('import-start').click();
    await poll(() => page.getByTestId('import-progress').getAttribute('data-status')).toBe('completed');
    await expect(page.getByTestId('import-result').innerText()).resolves.toContain('4 pages imported');
    await page.getByTestId('import-close').click();
    await page.setViewportSize({ width: 1280, height: 800 });
    await poll(async () => (await treeTitles(page)).join('|')).toMatch(/Introduction.*Getting started/);
    await poll(async () => (await treeTitles(page)).join('|')).toContain('API');
  });

  it('refuses a file it cannot import before uploading anything', async () => {
    const dir = join(tmpdir(), `folio-import-${process.pid}`);
    await mkdir(dir, { recursive: true });
    const pdf = join(dir, 'notes.pdf');
    await writeFile(pdf, '%PDF-1.4');
    const spaceId = await newSpace('Wrong file');
    const page = await openSpace(writerToken, spaceId);
    await openImport(page);
    await page.getByTestId('import-kind-files').check();
    await page.getByTestId('import-files').setInputFiles(pdf);
    await page.getByTestId('import-start').click();
    await poll(() => page.getByTestId('form-dialog-error').innerText()).toContain('not a Markdown, HTML or .zip file');
    await expect(page.getByTestId('import-progress').count()).resolves.toBe(0);
  });

  it('shows the server’s refusal of a URL in the dialog, and a run that fails with its reason', async () => {
    const spaceId = await newSpace('Refused URL');
    const page = await openSpace(writerToken, spaceId);
    await openImport(page);
    await page.getByTestId('import-url').fill('ftp://127.0.0.1/docs');
    await page.getByTestId('import-start').click();
    await poll(() => page.getByTestId('form-dialog-error').innerText()).toMatch(/only http and https URLs/);
    await shots(page, 'refused-url');
    // The dialog stays with what was typed; an address the fetcher's policy refuses ends the run failed.
    await expect(page.getByTestId('import-url').inputValue()).resolves.toBe('ftp://127.0.0.1/docs');
    await page.getByTestId('import-url').fill('http://10.0.0.1/docs');
    await page.getByTestId('import-start').click();
    await poll(() => page.getByTestId('import-progress').getAttribute('data-status')).toBe('failed');
    await expect(page.getByTestId('import-result').innerText()).resolves.toMatch(/^Import failed: \w+/);
    await shots(page, 'run-failed');
    expect(await treeTitles(page)).toEqual([]);
  });

  it('cancels a running import', async () => {
    const spaceId = await newSpace('Cancelled');
    const page = await openSpace(writerToken, spaceId);
    await openImport(page);
    await page.getByTestId('import-url').fill(`${site.url}/slow`);
    await page.getByTestId('import-start').click();
    await page.getByTestId('import-cancel').waitFor();
    await shots(page, 'running');
    await page.getByTestId('import-cancel').click();
    await poll(() => page.getByTestId('import-progress').getAttribute('data-status')).toBe('cancelled');
    // No Cancel any more, even when a read of the run sent before Cancel answers after it.
    await poll(() => page.getByTestId('import-cancel').count()).toBe(0);
  });

  it('gives a reader no "Import…"', async () => {
    const spaceId = await newSpace('Read only');
    const page = await openSpace(readerToken, spaceId);
    await page.getByTestId('space-actions').click();
    await page.getByTestId('action-rename-space').waitFor();
    await expect(page.getByTestId('action-import').count()).resolves.toBe(0);
  });
});
