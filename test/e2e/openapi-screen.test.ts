import { screenshotEveryWay } from '../helpers/screenshots';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeScan, seriousFindings } from '../helpers/axe';
import { useChromium, ARTIFACTS_DIR } from '../helpers/browser';
import { ADMIN_TOKEN } from '../helpers/compiled-server';
import { newMember, type Person } from '../helpers/people';
import { fillTokenSignIn } from '../helpers/web-app';

/**
 * The app's OpenAPI specs screens against the compiled server: a writer (the organization's
 * "create" role) adds a spec by URL from a local HTTP server and another by uploading a file, sees
 * each processed into a version, gives the URL spec a broken document and sees PARSE_ERROR with
 * the previous version kept, makes it public and reads the public URL without a token, and deletes
 * the uploaded one; a bad slug and a taken slug are refused in the dialog. A reader sees the list
 * and a spec without any write control. Screenshots (1280x800 and 390x844, light and dark) go to
 * test-artifacts/shots-openapi/, and axe finds nothing serious or critical.
 */

// The spec server is on loopback, which the outbound fetcher refuses unless allowed.
const e2e = useChromium({ app: true, people: true, env: { FOLIO_OUTBOUND_ALLOW: '127.0.0.1' } });

const SHOTS = join(ARTIFACTS_DIR, 'shots-openapi');
const shots = (page: Page, name: string) => screenshotEveryWay(page, join(SHOTS, name));

/** Polls the UI with a deadline that suits a loaded machine (processing runs as a job). */
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 30_000, interval: 250 });

const PETSTORE_YAML = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets:
    get:
      operationId: listPets
      summary: List all pets
      responses:
        '200':
          description: The pets
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Pet'
components:
  schemas:
    Pet:
      type: object
      required: [id, name]
      properties:
        id: { type: integer }
        name: { type: string }
`;

const BOOKS_JSON = JSON.stringify(
  {
    swagger: '2.0',
    info: { title: 'Books', version: '2.1.0' },
    paths: { '/books': { get: { operationId: 'listBooks', responses: { 200: { description: 'The books' } } } } },
  },
  null,
  2,
);

/** YAML that does not parse (an unclosed flow sequence). */
const BROKEN_YAML = 'openapi: 3.0.3\ninfo: { title: Broken, version: [1\npaths: {}\n';

/** What the local spec server answers at /petstore.yaml (the test swaps it for the broken one). */
let served = PETSTORE_YAML;
let specServer: Server;
let releaseSlow = () => {};
const slowAnswer = new Promise<void>((resolve) => (releaseSlow = resolve));
let specUrl = '';

async function api<T>(token: string | undefined, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path.startsWith('http') ? path : `${e2e.server.url}/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 || res.status === 205 ? undefined : await res.json()) as T;
}

let lastPage: Page | undefined;

async function openSignedIn(token: string, path: string, options: BrowserContextOptions = {}): Promise<Page> {
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, ...options });
  page.setDefaultTimeout(15_000);
  lastPage = page;
  await page.goto(`${e2e.server.url}/app${path}`);
  await fillTokenSignIn(page, e2e.server.url, token);
  return page;
}

/** `<name>-<width>-<scheme>.png` at desktop and phone sizes, light and dark; leaves the page 1280 wide and light. */

let writer: Person;
let orgId = '';
const listPath = () => `/o/${orgId}/openapi`;
const specPath = (slug: string) => `/o/${orgId}/openapi/${slug}`;

interface SpecBody {
  slug: string;
  processingState: string;
  lastVersion?: string;
  lastProcessErrorCode?: string;
  visibility: string;
  urls: { published?: string };
}

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !lastPage || lastPage.isClosed()) return;
  await e2e.screenshot(lastPage, `openapi-failure-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`);
  console.log('FAILED AT', lastPage.url(), (await lastPage.locator('body').innerText()).slice(0, 2000));
});

beforeAll(async () => {
  specServer = createServer((req, res) => {
    if (req.url === '/petstore.yaml') res.writeHead(200, { 'content-type': 'application/yaml' }).end(served);
    // Answers only once the test lets it: the spec stays in processing meanwhile.
    else if (req.url === '/slow.yaml')
      void slowAnswer.then(() => res.writeHead(200, { 'content-type': 'application/yaml' }).end(PETSTORE_YAML));
    else res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => specServer.listen(0, '127.0.0.1', resolve));
  specUrl = `http://127.0.0.1:${(specServer.address() as { port: number }).port}/petstore.yaml`;
  // The instance admin makes the organization (and the invites people join it through).
  orgId = (await api<{ id: string }>(ADMIN_TOKEN, 'POST', '/orgs', { title: 'Acme APIs' })).id;
  writer = await newMember(e2e.server, orgId, 'create', 'Wendy Writer');
}, 120_000);

afterAll(async () => {
  releaseSlow();
  await new Promise<void>((resolve) => specServer?.close(() => resolve()));
});

describe('OpenAPI specs in the app', () => {
  it('adds a spec by URL, refuses a bad and a taken slug, and shows it processed with a version', async () => {
    const page = await openSignedIn(writer.token, listPath());
    await page.getByTestId('specs-screen').waitFor();
    await page.getByTestId('empty-add-spec').waitFor();
    await shots(page, 'list-empty');

    await page.getByTestId('add-spec').click();
    await page.getByTestId('spec-source-url').fill(specUrl);
    // The slug is suggested from the URL; a bad one is said under its field and nothing is sent.
    expect(await page.getByTestId('spec-slug').inputValue()).toBe('petstore');
    await page.getByTestId('spec-slug').fill('pet store-');
    await page.getByTestId('add-spec-submit').click();
    await poll(() => page.getByTestId('add-spec-dialog').innerText()).toContain('single hyphens');
    expect((await api<{ items: unknown[] }>(writer.token, 'GET', `/orgs/${orgId}/openapi`)).items).toEqual([]);
    await shots(page, 'add-dialog-bad-slug');

    await page.getByTestId('spec-slug').fill('petstore');
    await page.getByTestId('add-spec-submit').click();
    // Added: the app opens the spec, which the server processes in the background.
    await page.getByTestId('spec-screen').waitFor();
    await poll(() => page.getByTestId('spec-state').getAttribute('data-state')).toBe('complete');
    await poll(() => page.getByTestId('spec-version').count()).toBe(1);
    await page.getByTestId('spec-version-latest').waitFor();
    expect(await page.getByTestId('spec-source').textContent()).toBe(specUrl);
    expect(await page.getByTestId('spec-processed-at').textContent()).not.toContain('Not processed');

    // The version's content opens in a dialog.
    await page.getByTestId('spec-version-view').click();
    await poll(() => page.getByTestId('spec-content-text').textContent()).toContain('"listPets"');
    await shots(page, 'version-content');
    await page.getByTestId('spec-content-close').click();
    await shots(page, 'spec-complete');

    // The same slug again: the server's 409 is said in the dialog, which stays open.
    await page.getByTestId('crumb-specs').click();
    await page.getByTestId('spec-list').waitFor();
    await page.getByTestId('add-spec').click();
    await page.getByTestId('spec-source-url').fill(specUrl);
    await page.getByTestId('add-spec-submit').click();
    await poll(() => page.getByTestId('form-dialog-error').textContent()).toMatch(/.+/);
    expect(await page.getByTestId('add-spec-dialog').isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect((await api<{ items: unknown[] }>(writer.token, 'GET', `/orgs/${orgId}/openapi`)).items).toHaveLength(1);
  });

  it('adds a spec by uploading a file, and deletes it after a confirmation', async () => {
    const page = await openSignedIn(writer.token, listPath());
    await page.getByTestId('spec-list').waitFor();
    await page.getByTestId('add-spec').click();
    await page.getByTestId('spec-source-file-kind').check();
    // A file of another kind is refused before anything is sent.
    await page.getByTestId('spec-source-file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await poll(() => page.getByTestId('add-spec-dialog').innerText()).toContain('is not a .json, .yaml or .yml file');
    await page.getByTestId('spec-source-file').setInputFiles({
      name: 'books-api.json',
      mimeType: 'application/json',
      buffer: Buffer.from(BOOKS_JSON),
    });
    await poll(() => page.getByTestId('spec-slug').inputValue()).toBe('books-api');
    await shots(page, 'add-dialog-upload');
    await page.getByTestId('add-spec-submit').click();
    await page.getByTestId('spec-screen').waitFor();
    await poll(() => page.getByTestId('spec-state').getAttribute('data-state')).toBe('complete');
    await poll(() => page.getByTestId('spec-version').count()).toBe(1);
    expect(await page.getByTestId('spec-source').textContent()).toBe('Uploaded');
    const spec = await api<SpecBody>(writer.token, 'GET', `/orgs/${orgId}/openapi/books-api`);
    expect(spec.lastVersion).toBeTruthy();

    // The list shows both, the upload as "Uploaded".
    await page.getByTestId('crumb-specs').click();
    await poll(() => page.getByTestId('spec-row').count()).toBe(2);
    expect(
      await page.locator('[data-testid=spec-row][data-slug=books-api] [data-testid=spec-source]').textContent(),
    ).toBe('Uploaded');
    await shots(page, 'list-two');

    await page.locator('[data-testid=spec-row][data-slug=books-api] [data-testid=spec-link]').click();
    await page.getByTestId('spec-delete').click();
    await page.getByTestId('confirm-yes').click();
    await page.getByTestId('spec-list').waitFor();
    await poll(() => page.getByTestId('spec-row').count()).toBe(1);
    const left = await api<{ items: SpecBody[] }>(writer.token, 'GET', `/orgs/${orgId}/openapi`);
    expect(left.items.map((s) => s.slug)).toEqual(['petstore']);
  });

  it('shows a spec in processing with a spinner, and stops polling when the screen is left', async () => {
    const page = await openSignedIn(writer.token, listPath());
    await page.getByTestId('spec-list').waitFor();
    await page.getByTestId('add-spec').click();
    await page.getByTestId('spec-source-url').fill(specUrl.replace('petstore.yaml', 'slow.yaml'));
    await page.getByTestId('add-spec-submit').click();
    await page.getByTestId('spec-screen').waitFor();
    // The source's server has not answered: queued or in progress, with a spinner, and no version yet.
    expect(['pending', 'progress']).toContain(await page.getByTestId('spec-state').getAttribute('data-state'));
    await page.locator('[data-testid=spec-state] .spec-spinner').waitFor();
    await page.getByTestId('spec-processing-note').waitFor();
    await shots(page, 'spec-processing');

    // The screen asks the server again while it processes…
    const polls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/openapi/slow')) polls.push(request.url());
    });
    await poll(() => polls.length).toBeGreaterThan(0);
    // …and stops once it is left (the Docs sites screen polls nothing of specs).
    await page.getByTestId('org-tab-sites').click();
    await page.getByTestId('spec-screen').waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    const left = polls.length;
    await page.waitForTimeout(4000);
    expect(polls.length).toBe(left);

    releaseSlow();
    await poll(
      async () => (await api<SpecBody>(writer.token, 'GET', `/orgs/${orgId}/openapi/slow`)).processingState,
    ).toBe('complete');
    await api(writer.token, 'DELETE', `/orgs/${orgId}/openapi/slow`);
  });

  it('shows a PARSE_ERROR for a broken source with the previous version kept, then publishes the spec', async () => {
    const before = await api<SpecBody>(writer.token, 'GET', `/orgs/${orgId}/openapi/petstore`);
    served = BROKEN_YAML;
    const page = await openSignedIn(writer.token, specPath('petstore'));
    await page.getByTestId('spec-update-panel').waitFor();
    expect(await page.getByTestId('spec-source-url').inputValue()).toBe(specUrl);
    await page.getByTestId('spec-update-submit').click();
    await poll(() => page.getByTestId('spec-error-code').textContent()).toBe('PARSE_ERROR');
    expect(await page.getByTestId('spec-error-details').innerText()).toMatch(/.+/);
    await page.getByTestId('spec-error-kept').waitFor();
    expect(await page.getByTestId('spec-version').count()).toBe(1);
    const after = await api<SpecBody>(writer.token, 'GET', `/orgs/${orgId}/openapi/petstore`);
    expect(after.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(after.lastVersion).toBe(before.lastVersion);
    await shots(page, 'spec-parse-error');

    // The list says it too, with the server's message.
    await page.getByTestId('crumb-specs').click();
    await poll(() => page.getByTestId('spec-error-code').textContent()).toBe('PARSE_ERROR');
    await shots(page, 'list-parse-error');

    // Public: the URL is shown to copy, and answers without a token.
    await page.getByTestId('spec-link').click();
    await page.getByTestId('spec-make-public').click();
    await page.getByTestId('spec-make-private').waitFor();
    const url = await page.getByTestId('spec-public-url').inputValue();
    const published = await api<{ info: { title: string } }>(undefined, 'GET', url);
    expect(published.info.title).toBe('Petstore');
    await shots(page, 'spec-public');
    served = PETSTORE_YAML;
  });

  it('shows a reader the list and a spec without write controls', async () => {
    const reader = await newMember(e2e.server, orgId, 'read', 'Rita Reader');
    const page = await openSignedIn(reader.token, listPath());
    await page.getByTestId('spec-list').waitFor();
    expect(await page.getByTestId('add-spec').count()).toBe(0);
    await page.getByTestId('spec-link').click();
    await page.getByTestId('spec-versions').waitFor();
    await page.getByTestId('spec-public-url').waitFor();
    for (const absent of ['spec-make-public', 'spec-make-private', 'spec-update-panel', 'spec-delete'])
      expect(await page.getByTestId(absent).count(), absent).toBe(0);
    await shots(page, 'spec-reader');
  });

  it('has no serious or critical accessibility violations (axe-core), light and dark', async () => {
    const page = await openSignedIn(writer.token, listPath(), { bypassCSP: true });
    const found: string[] = [];
    const scan = async (where: string) => {
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.waitForTimeout(300); // the theme's colour transitions
        found.push(...seriousFindings(await axeScan(page)).map((line) => `${where} ${scheme}: ${line}`));
      }
    };
    await page.getByTestId('spec-list').waitFor();
    await scan('list');
    await page.getByTestId('add-spec').click();
    await page.getByTestId('spec-source-url').waitFor();
    await scan('add dialog');
    await page.keyboard.press('Escape');
    await page.getByTestId('spec-link').click();
    await page.getByTestId('spec-versions').waitFor();
    await scan('spec');
    await page.getByTestId('spec-version-view').click();
    await page.getByTestId('spec-content-text').waitFor();
    await scan('content dialog');
    expect(found).toEqual([]);
  });
});
