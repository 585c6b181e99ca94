import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useChromium } from '../helpers/browser';
import { seedPages, type PageIds } from '../helpers/seed';
import { axeScan, seriousFindings } from '../helpers/axe';
import {
  answerPrompt,
  localCopiesSettled,
  openSpaceThroughUi,
  pickSpaceThroughUi,
  syncState,
  typeInEditor,
} from '../helpers/web-app';

/**
 * The Ctrl/Cmd+K palette of the writer's app against a real server: full-text
 * search through the server's index (a word only in a page body, with its
 * section and a highlighted snippet; Enter opens the page at that heading),
 * the same search with the browser offline (the local index over the
 * IndexedDB copy, including words typed offline), and commands.
 */

const e2e = useChromium({ app: true, env: { FOLIO_REVISION_QUIET_MS: '50' } });
let spaceId: string;
let harbourId: string;
/** Page ids by ref (WELCOME, BIRDS, TIDES, ARRIVALS, KEEPER). */
let ids: PageIds;

/** Enough paragraphs that a heading below them starts out of view. */
const FILLER = Array.from(
  { length: 40 },
  (_, i) => `Paragraph ${i + 1} about shore life, dunes and the wind over the beach.`,
).join('\n\n');

beforeAll(async () => {
  const t = e2e.server;
  const orgId = (await t.client.orgs.createOrganization({ title: 'Field Notes' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Field guide' })).data.id;
  const field = await seedPages(t, spaceId, [
    { ref: 'WELCOME', title: 'Welcome', markdown: 'Start here.\n' },
    {
      ref: 'BIRDS',
      title: 'Birds of the coast',
      markdown: `Seabirds of the northern shore.\n\n${FILLER}\n\n## Nesting habits\n\nThe albatross glides for hours over the open ocean before it lands to nest.\n\n${FILLER}\n`,
    },
    { ref: 'TIDES', title: 'Tides', markdown: 'The moon pulls the sea twice a day.\n' },
  ]);
  harbourId = (await t.client.orgs.createSpace(orgId, { title: 'Harbour log' })).data.id;
  const harbour = await seedPages(t, harbourId, [
    { ref: 'ARRIVALS', title: 'Arrivals', markdown: 'Boats that came in.\n' },
    {
      ref: 'KEEPER',
      title: 'Keeper’s diary',
      markdown: `Notes of the keeper.\n\n${FILLER}\n\n## Storm night\n\nThe lighthouse lamp failed at midnight.\n`,
    },
  ]);
  ids = { ...field, ...harbour };
});

/** The serious and critical axe-core violations inside the open palette (the app behind is inert). */
async function paletteViolations(page: Page): Promise<string[]> {
  return seriousFindings(await axeScan(page, '[data-testid=palette]'));
}

/** Opens the palette with the keyboard and waits for its field to have focus. */
async function openPalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+K');
  await page.getByTestId('palette').waitFor();
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
    .toBe('palette-input');
}

/** Whether the editor line containing `text` is on screen and not covered (what is drawn at its centre is the line). */
function lineVisible(page: Page, text: string): Promise<boolean> {
  return page.evaluate((wanted) => {
    const line = Array.from(document.querySelectorAll<HTMLElement>('.cm-line')).find((l) =>
      l.textContent?.includes(wanted),
    );
    if (!line) return false;
    const box = line.getBoundingClientRect();
    const x = box.left + Math.min(20, box.width / 2);
    const y = box.top + box.height / 2;
    if (y < 0 || y > window.innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return hit !== null && line.contains(hit);
  }, text);
}

/** The search hits listed, as "page#section". */
function listedHits(page: Page): Promise<string[]> {
  return page
    .getByTestId('palette-hit')
    .evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-page-id')}#${r.getAttribute('data-section-id')}`));
}

// Each step signs in, loads the app and waits on sync: generous on a shared, busy machine.
describe('search and command palette', { timeout: 90_000 }, () => {
  let page: Page;

  it('finds a word of a page body through the server, marks it in the snippet and jumps to its section', async () => {
    const t = e2e.server;
    // bypassCSP: the axe scan is an injected script, which the app's own policy rightly forbids.
    page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await openSpaceThroughUi(page, t.url, t.adminToken, spaceId);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Welcome');
    // Opened the usual way, the page shows its top: the heading is far below.
    await page.getByTestId('page-tree').getByText('Birds of the coast').click();
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Birds of the coast');
    await expect.poll(() => lineVisible(page, 'Paragraph 1 about')).toBe(true);
    expect(await lineVisible(page, 'Nesting habits')).toBe(false);
    await page.getByTestId('page-tree').getByText('Welcome').click();
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Welcome');

    await openPalette(page);
    const dialog = page.getByTestId('palette');
    // The kit's modal <dialog> (role dialog, the app behind inert), opened with showModal().
    expect(await dialog.evaluate((d) => d.tagName === 'DIALOG' && d.matches(':modal'))).toBe(true);
    // With nothing typed it lists the commands.
    await expect.poll(() => page.getByTestId('palette-command').count()).toBeGreaterThan(5);
    await e2e.screenshot(page, 'search-palette-desktop-light-commands');

    const served = page.waitForResponse((r) => r.url().includes(`/v1/spaces/${spaceId}/search?`) && r.ok());
    await page.getByTestId('palette-input').fill('albatross');
    // The server's index found the body word (not only the local copy, which completes its results).
    const answer = (await (await served).json()) as { items: { id: string; sections: { id: string }[] }[] };
    expect(answer.items.map((p) => `${p.id}#${p.sections[0]?.id}`)).toEqual([`${ids.BIRDS}#nesting-habits`]);
    await expect.poll(() => listedHits(page)).toEqual([`${ids.BIRDS}#nesting-habits`]);
    const hit = page.getByTestId('palette-hit').first();
    expect(await hit.locator('.palette-page-title').textContent()).toBe('Birds of the coast');
    expect(await hit.getByTestId('palette-section').textContent()).toBe('Nesting habits');
    expect(await hit.getByTestId('palette-snippet').innerHTML()).toContain('The <mark>albatross</mark> glides');
    expect(await page.getByTestId('palette-source').isVisible()).toBe(false); // the server answered
    expect(await hit.getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('palette-input').getAttribute('aria-activedescendant')).toBe(
      await hit.getAttribute('id'),
    );
    await e2e.screenshot(page, 'search-palette-desktop-light-results');
    expect(await paletteViolations(page)).toEqual([]);

    // Tab stays in the palette (focus is trapped in the modal dialog).
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid=palette]'))).toBe(true);
    await page.getByTestId('palette-input').focus();

    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('palette').count()).toBe(0);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Birds of the coast');
    await expect.poll(() => lineVisible(page, 'Nesting habits')).toBe(true);
    // The cursor is on the heading, in the focused editor.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('editor-content');
    expect(
      await page.evaluate(() => getSelection()?.anchorNode?.parentElement?.closest('.cm-line')?.textContent),
    ).toContain('Nesting habits');
    await e2e.screenshot(page, 'search-palette-desktop-light-jumped');
  });

  it('runs commands: ">" lists them, arrows choose, Enter runs, Esc closes and gives focus back', async () => {
    await openPalette(page);
    await page.getByTestId('palette-input').fill('>theme');
    await expect.poll(() => page.getByTestId('palette-command').count()).toBe(3);
    expect(await page.getByTestId('palette-hit').count()).toBe(0);
    // Down until the dark theme is active, then Enter.
    for (let i = 0; i < 3; i++) {
      if ((await page.locator('[data-command=theme-dark]').getAttribute('aria-selected')) === 'true') break;
      await page.keyboard.press('ArrowDown');
    }
    expect(await page.locator('[data-command=theme-dark]').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.getByTestId('palette').count()).toBe(0);

    await openPalette(page);
    await page.getByTestId('palette-input').fill('albatross');
    await expect.poll(() => listedHits(page)).toEqual([`${ids.BIRDS}#nesting-habits`]);
    await e2e.screenshot(page, 'search-palette-desktop-dark-results');
    expect(await paletteViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('palette').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('editor-content');

    // Mixed results: a command matches plain words too ("new page" without ">").
    await openPalette(page);
    await page.getByTestId('palette-input').fill('new page');
    await page.locator('[data-command=new-page]').click();
    await answerPrompt(page, 'Gulls');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Gulls');

    // Source mode: the same as the toolbar's Source button.
    await openPalette(page);
    await page.getByTestId('palette-input').fill('>source');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('toggle-source').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('.cm-editor').getAttribute('data-source-mode')).toBe('true');
    await openPalette(page);
    await page.getByTestId('palette-input').fill('>toggle markdown');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('toggle-source').getAttribute('aria-pressed')).toBe('false');

    await openPalette(page);
    await page.getByTestId('palette-input').fill('>shortcuts');
    await page.keyboard.press('Enter');
    await page.getByTestId('shortcuts-dialog').waitFor();
    expect(await page.getByTestId('shortcuts-dialog').textContent()).toContain('Search pages and run commands');
    await page.keyboard.press('Escape');

    await openPalette(page);
    await page.getByTestId('palette-input').fill('>light');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
  });

  it('searches the local copy offline, including words typed offline, and still jumps to the section', async () => {
    await page.context().setOffline(true);
    await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
    // Written on a plane: a new section on the page the last test created.
    await typeInEditor(page, '## Notes from the ferry\n\nA zeppelin drifted over the harbour.');
    let searches = 0;
    page.on('request', (r) => void (r.url().includes('/search?') && searches++));

    await openPalette(page);
    await page.getByTestId('palette-input').fill('zeppelin');
    await expect.poll(() => page.getByTestId('palette-hit').count()).toBe(1);
    const typed = page.getByTestId('palette-hit').first();
    expect(await typed.locator('.palette-page-title').textContent()).toBe('Gulls');
    expect(await typed.getAttribute('data-section-id')).toBe('notes-from-the-ferry');
    expect(await typed.getByTestId('palette-snippet').innerHTML()).toContain('A <mark>zeppelin</mark> drifted');
    expect(await page.getByTestId('palette-source').textContent()).toBe('Offline copy');
    expect(await page.getByTestId('palette-source').isVisible()).toBe(true);
    await e2e.screenshot(page, 'search-palette-desktop-light-offline');

    // A body word from the server's content, found in the IndexedDB-backed copy; Enter jumps to it.
    await page.getByTestId('palette-input').fill('albatros');
    await expect.poll(() => listedHits(page)).toEqual([`${ids.BIRDS}#nesting-habits`]);
    expect(await page.getByTestId('palette-snippet').first().innerHTML()).toContain('<mark>albatross</mark>');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Birds of the coast');
    await expect.poll(() => lineVisible(page, 'Nesting habits')).toBe(true);
    expect(searches).toBe(0);
    expect(await syncState(page)).not.toBe('online');
    await page.context().setOffline(false);
  });

  it('offline, also finds words in the stored copies of other spaces opened on this device, and opens them', async () => {
    // Open the other space once (online), so the device keeps its copy, then come back.
    await page.getByTestId('to-picker').click();
    await pickSpaceThroughUi(page, harbourId);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Arrivals');
    await expect.poll(() => syncState(page)).toBe('online');
    await localCopiesSettled(page);
    await page.getByTestId('to-picker').click();
    await pickSpaceThroughUi(page, spaceId);
    await expect.poll(() => syncState(page)).toBe('online');

    await page.context().setOffline(true);
    await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
    await openPalette(page);
    await page.getByTestId('palette-input').fill('lighthouse');
    await expect.poll(() => listedHits(page)).toEqual([`${ids.KEEPER}#storm-night`]);
    expect(await page.locator('.palette-group').first().textContent()).toBe('In Harbour log');
    expect(await page.getByTestId('palette-snippet').first().innerHTML()).toContain('The <mark>lighthouse</mark> lamp');
    await e2e.screenshot(page, 'search-palette-desktop-light-other-space-offline');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Keeper’s diary');
    await expect.poll(() => page.getByTestId('space-title').textContent()).toBe('Harbour log');
    await expect.poll(() => lineVisible(page, 'Storm night')).toBe(true);
    await page.context().setOffline(false);
  });

  it('looks right on a phone, light and dark', async () => {
    const t = e2e.server;
    for (const colorScheme of ['light', 'dark'] as const) {
      const phone = await e2e.newPage({ viewport: { width: 390, height: 844 }, colorScheme, hasTouch: true });
      await openSpaceThroughUi(phone, t.url, t.adminToken, spaceId);
      await e2e.screenshot(phone, `search-palette-phone-${colorScheme}-header`);
      await phone.getByTestId('open-palette').click();
      await phone.getByTestId('palette').waitFor();
      await phone.getByTestId('palette-input').fill('albatross');
      await expect.poll(() => listedHits(phone)).toContain(`${ids.BIRDS}#nesting-habits`);
      expect(await phone.getByTestId('palette-close').isVisible()).toBe(true);
      await e2e.screenshot(phone, `search-palette-phone-${colorScheme}`);
      await phone.getByTestId('palette-close').click();
      await expect.poll(() => phone.getByTestId('palette').count()).toBe(0);
      await phone.close();
    }
  });
});
