import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeScan, seriousFindings } from '../helpers/axe';
import { useChromium } from '../helpers/browser';
import { newMember, type Person } from '../helpers/people';
import { fillTokenSignIn } from '../helpers/web-app';

/**
 * Docs sites from the web app against the compiled server: a writer (the "create" role) creates a
 * site from the sites list, adds two spaces as sections, renames one, is told why a taken path is
 * refused, reorders the sections with the keyboard (the order checked through the REST API), sets
 * the default section, groups a section and publishes the site. A reader sees the same structure
 * without an edit control; a guest is told the sites are for members. Screenshots of each screen
 * at desktop and phone widths, light and dark, go to test-artifacts/.
 */

const e2e = useChromium({ app: true, people: true });

/** Polls the UI with a deadline that suits a loaded machine (vitest's default is one second). */
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 15_000 });

async function api<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e.server.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

/** Opens `path` of the web app signed in with `token`. */
async function openSignedIn(token: string, path: string): Promise<Page> {
  // bypassCSP: axe (the accessibility checks) is injected as an inline script, which the app's own policy forbids.
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  page.setDefaultTimeout(15_000);
  lastPage = page;
  await page.goto(`${e2e.server.url}/app${path}`);
  await fillTokenSignIn(page, e2e.server.url, token);
  return page;
}

const shots = (page: Page, name: string) => e2e.screenshotEveryWay(page, name);

let writer: Person;
let reader: Person;
let orgId = '';
let siteId = '';
let lastPage: Page | undefined;

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail' || !lastPage || lastPage.isClosed()) return;
  await e2e.screenshot(lastPage, `sites-structure-failure-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`);
  console.log('FAILED AT', lastPage.url(), (await lastPage.locator('body').innerText()).slice(0, 2000));
});

beforeAll(async () => {
  // The server's admin makes the organization and its spaces (and invites, see people.ts); the
  // writer and the reader join it.
  const admin = e2e.server.adminToken;
  orgId = (await api<{ id: string }>(admin, 'POST', '/orgs', { title: 'Northwind Docs' })).id;
  for (const title of ['Guide', 'API reference', 'Changelog'])
    await api(admin, 'POST', `/orgs/${orgId}/spaces`, { title });
  writer = await newMember(e2e.server, orgId, 'create', 'Wes Writer');
  reader = await newMember(e2e.server, orgId, 'read', 'Rae Reader');
}, 120_000);

const sectionTitles = (page: Page) => page.getByTestId('section-title').allTextContents();
const sectionRow = (page: Page, title: string): Locator =>
  page.locator('[data-testid=section-row]', { has: page.locator(`[data-testid=section-title]:text-is("${title}")`) });

/** Runs a section's menu entry. */
async function sectionAction(page: Page, title: string, testid: string): Promise<void> {
  await sectionRow(page, title).getByTestId('section-menu').first().click();
  await page.locator(`[role=menu] [data-testid^="${testid}"]`).first().click();
}

/** Adds a section starting with the space titled `space`. */
async function addSection(page: Page, space: string): Promise<void> {
  await page.getByTestId('add-section').click();
  const dialog = page.getByTestId('add-section-dialog');
  await dialog.getByTestId('space-picker-select').selectOption({ label: space });
  await dialog.getByTestId('add-section-dialog-save').click();
  await dialog.waitFor({ state: 'detached' });
}

describe('docs sites: list, overview and structure', () => {
  it('a writer creates a site, builds its sections, reorders them by keyboard, sets the default, publishes', async () => {
    const page = await openSignedIn(writer.token, `/o/${orgId}/sites`);
    await page.getByTestId('site-list-panel').getByText('No docs sites yet').waitFor();
    await shots(page, 'sites-list-empty');

    // New site: a too-short title is refused in the dialog, then the site is created and opened.
    await page.getByTestId('new-site').click();
    await page.getByTestId('new-site-title').fill('H');
    await page.getByTestId('new-site-create').click();
    await poll(() => page.getByTestId('form-dialog-error').textContent()).toContain('at least 2 characters');
    await page.getByTestId('new-site-title').fill('Northwind Handbook');
    await shots(page, 'sites-new-site');
    await page.getByTestId('new-site-create').click();
    await poll(() => page.getByTestId('site-title').textContent()).toContain('Northwind Handbook');
    siteId = new URL(page.url()).pathname.split('/')[5]!;
    const created = await api<{ title: string; published: boolean }>(
      writer.token,
      'GET',
      `/orgs/${orgId}/sites/${siteId}`,
    );
    expect(created).toMatchObject({ title: 'Northwind Handbook', published: false });
    await page.getByTestId('site-publish').waitFor();

    // Structure: two spaces as sections.
    await page.getByTestId('site-structure').click();
    await page.getByTestId('structure-panel').getByText('This site publishes no space yet').waitFor();
    await addSection(page, 'Guide');
    await addSection(page, 'API reference');
    await poll(() => sectionTitles(page)).toEqual(['Guide', 'API reference']);

    // Rename one; a title too short is refused before anything is sent.
    await sectionAction(page, 'API reference', 'section-rename');
    const rename = page.getByTestId('section-rename-dialog');
    await rename.getByTestId('section-rename-dialog-input').fill('A');
    await rename.getByTestId('section-rename-dialog-save').click();
    await poll(() => rename.getByTestId('form-dialog-error').textContent()).toContain('at least 2 characters');
    await rename.getByTestId('section-rename-dialog-input').fill('API');
    await rename.getByTestId('section-rename-dialog-save').click();
    await poll(() => sectionTitles(page)).toEqual(['Guide', 'API']);

    // A path another section uses: the server's 400 is said in the dialog, and nothing changes.
    const guidePath = (await sectionRow(page, 'Guide').getByTestId('section-path').textContent())!.slice(1);
    await sectionAction(page, 'API', 'section-path-edit');
    const pathDialog = page.getByTestId('section-path-dialog');
    await pathDialog.getByTestId('section-path-dialog-input').fill(guidePath);
    await pathDialog.getByTestId('section-path-dialog-save').click();
    await poll(() => pathDialog.getByTestId('form-dialog-error').textContent()).toContain(
      `another section already uses "${guidePath}"`,
    );
    await pathDialog.getByRole('button', { name: 'Cancel' }).click();
    await pathDialog.waitFor({ state: 'detached' });
    expect(await sectionRow(page, 'API').getByTestId('section-path').textContent()).not.toBe(`/${guidePath}`);

    // Reorder by keyboard: Alt+↑ on the second section's row moves it first.
    await sectionRow(page, 'API').getByTestId('move-up').first().focus();
    await page.keyboard.press('Alt+ArrowUp');
    await poll(() => sectionTitles(page)).toEqual(['API', 'Guide']);
    type Section = { title: string; default: boolean };
    const sections = () =>
      api<{ items: Section[] }>(writer.token, 'GET', `/orgs/${orgId}/sites/${siteId}/sections`).then((r) => r.items);
    expect((await sections()).map((s) => s.title)).toEqual(['API', 'Guide']);
    // Focus stays on the moved row, so the next key press moves it again (back down, with Enter on Move down).
    await poll(() =>
      page.evaluate(() => document.activeElement?.closest('[data-testid=section-row]')?.textContent ?? ''),
    ).toContain('API');
    await sectionRow(page, 'API').getByTestId('move-down').first().focus();
    await page.keyboard.press('Enter');
    await poll(() => sectionTitles(page)).toEqual(['Guide', 'API']);
    // The moved row gets focus back a frame after the write ends (its Move down is now disabled: Move up).
    await poll(() =>
      page.evaluate(() => {
        const active = document.activeElement;
        const row = active?.closest('[data-testid=section-row]');
        return `${row?.querySelector('[data-testid=section-title]')?.textContent}/${active?.getAttribute('data-testid')}`;
      }),
    ).toBe('API/move-up');
    await page.keyboard.press('Alt+ArrowUp');
    await poll(() => sectionTitles(page)).toEqual(['API', 'Guide']);
    expect((await sections()).map((s) => s.title)).toEqual(['API', 'Guide']);

    // The first section is the default until another is chosen.
    await poll(() => sectionRow(page, 'API').getByTestId('section-default').count()).toBe(1);
    await sectionAction(page, 'Guide', 'section-set-default');
    await poll(() => sectionRow(page, 'Guide').getByTestId('section-default').count()).toBe(1);
    expect(await sectionRow(page, 'API').getByTestId('section-default').count()).toBe(0);
    expect((await sections()).find((s) => s.default)?.title).toBe('Guide');

    // A variant in the Guide section, and a group holding the API section.
    await sectionRow(page, 'Guide').getByTestId('add-variant').click();
    const variant = page.getByTestId('add-variant-dialog');
    await variant.getByTestId('space-picker-select').selectOption({ label: 'Changelog' });
    await variant.getByTestId('add-variant-dialog-save').click();
    await poll(() => sectionRow(page, 'Guide').getByTestId('site-space-row').count()).toBe(2);
    await page.getByTestId('new-group').click();
    await page.getByTestId('new-group-dialog-input').fill('Reference');
    await page.getByTestId('new-group-dialog-save').click();
    await page.getByTestId('group-row').waitFor();
    await sectionAction(page, 'API', 'section-to-group');
    await poll(() => page.getByTestId('group-row').getByTestId('section-title').allTextContents()).toEqual(['API']);
    await shots(page, 'site-structure');
    expect(seriousFindings(await axeScan(page))).toEqual([]);

    // Publish from the overview: the address becomes the published one.
    await page.getByTestId('site-overview').click();
    await page.getByTestId('site-publish').click();
    await poll(() => page.getByTestId('site-open').textContent()).toContain('Open site');
    const site = await api<{ published: boolean; urls: { published?: string } }>(
      writer.token,
      'GET',
      `/orgs/${orgId}/sites/${siteId}`,
    );
    expect(site.published).toBe(true);
    expect(await page.getByTestId('site-open').getAttribute('href')).toBe(site.urls.published);
    await poll(() => page.getByTestId('site-published-spaces').textContent()).toContain('Guide');
    await shots(page, 'site-overview');
    expect(seriousFindings(await axeScan(page))).toEqual([]);

    // The list shows the new site, published.
    await page.getByTestId('crumb-sites').click();
    const row = page.locator(`[data-testid=site-row][data-site-id="${siteId}"]`);
    await poll(() => row.getByTestId('site-status').textContent()).toBe('Published');
    await shots(page, 'sites-list');
    expect(seriousFindings(await axeScan(page))).toEqual([]);
  });

  it('a site without sections: its spaces reorder by dragging, and one is the default', async () => {
    const spaces = await api<{ items: { id: string; title: string }[] }>(writer.token, 'GET', `/orgs/${orgId}/spaces`);
    const idOf = (title: string) => spaces.items.find((s) => s.title === title)!.id;
    const flat = await api<{ id: string }>(writer.token, 'POST', `/orgs/${orgId}/sites`, {
      title: 'Release notes',
      spaces: [idOf('Changelog'), idOf('Guide')],
    });
    const page = await openSignedIn(writer.token, `/o/${orgId}/sites/${flat.id}/structure`);
    const titles = () => page.getByTestId('site-space-title').allTextContents();
    await poll(titles).toEqual(['Changelog', 'Guide']);
    // Drag Guide's row onto the top half of Changelog's: it lands before it.
    const row = (title: string) =>
      page.locator('[data-testid=site-space-row]', { has: page.getByText(title, { exact: true }) });
    await row('Guide')
      .locator('.site-grip')
      .dragTo(row('Changelog'), { targetPosition: { x: 40, y: 3 } });
    await poll(titles).toEqual(['Guide', 'Changelog']);
    const listed = await api<{ items: { title: string; default: boolean }[] }>(
      writer.token,
      'GET',
      `/orgs/${orgId}/sites/${flat.id}/site-spaces`,
    );
    expect(listed.items.map((s) => s.title)).toEqual(['Guide', 'Changelog']);
    // The default site space is a site setting here (no section to hold it).
    await row('Changelog').getByTestId('site-space-menu').click();
    await page.locator('[role=menu] [data-testid=site-space-set-default]').click();
    await poll(() => row('Changelog').getByTestId('site-space-default').count()).toBe(1);
    const defaults = await api<{ items: { title: string }[] }>(
      writer.token,
      'GET',
      `/orgs/${orgId}/sites/${flat.id}/site-spaces?default=true`,
    );
    expect(defaults.items.map((s) => s.title)).toEqual(['Changelog']);
    await shots(page, 'site-structure-spaces');
  });

  it('a reader sees the sites and the structure without edit controls', async () => {
    const page = await openSignedIn(reader.token, `/o/${orgId}/sites/${siteId}/structure`);
    await poll(() => sectionTitles(page)).toEqual(['Guide', 'API']);
    await page.getByTestId('structure-read-only').waitFor();
    for (const control of [
      'add-section',
      'new-group',
      'section-menu',
      'group-menu',
      'move-up',
      'move-down',
      'add-variant',
    ])
      expect(await page.getByTestId(control).count(), control).toBe(0);
    expect(await page.locator('[draggable=true]').count()).toBe(0);
    await shots(page, 'site-structure-reader');
    expect(seriousFindings(await axeScan(page))).toEqual([]);

    await page.getByTestId('site-overview').click();
    await page.getByTestId('site-published-spaces').waitFor();
    expect(await page.getByTestId('site-publish').count()).toBe(0);
    expect(await page.getByTestId('site-unpublish').count()).toBe(0);
    await page.getByTestId('crumb-sites').click();
    await page.getByTestId('site-list').waitFor();
    expect(await page.getByTestId('new-site').count()).toBe(0);
  });

  it('a guest of the organization is told the sites are for members', async () => {
    const guest = await newMember(e2e.server, orgId, null, 'Gus Guest');
    const page = await openSignedIn(guest.token, `/o/${orgId}/sites`);
    await page.getByTestId('sites-not-allowed').waitFor();
    await page.goto(`${e2e.server.url}/app/o/${orgId}/sites/${siteId}/structure`);
    await page.getByTestId('sites-not-allowed').waitFor();
    expect(await page.getByTestId('section-row').count()).toBe(0);
  });
});
