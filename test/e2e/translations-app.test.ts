import { screenshotEveryWay } from '../helpers/screenshots';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeBothSchemes } from '../helpers/axe';
import { ARTIFACTS_DIR, useChromium } from '../helpers/browser';
import { startCompiledServer, type CompiledServer } from '../helpers/compiled-server';
import { newMember } from '../helpers/people';
import { callApi, seedPages, updatePages } from '../helpers/seed';
import {
  fakeTranslate,
  startLibreTranslateStandIn,
  startOpenAiStandIn,
  type LibreTranslateStandIn,
  type OpenAiStandIn,
} from '../helpers/translate-engines';
import { fillTokenSignIn } from '../helpers/web-app';

/**
 * "Translate…" on a space in the app, against the compiled server and an OpenAI-shaped translation
 * engine stand-in: an admin adds French with instructions, follows the first run to its end, opens
 * the translated space (translated titles, and the badge back to the source), runs it again after an
 * edit of one source page (the latest run: 1 page), and edits the organization's glossary (checked
 * before sending, saved, there after a reload); a reader sees it all read-only. A server without an
 * engine says so up front, and a failed run shows the server's reason. Screenshots (1280x800 and
 * 390x844, light and dark) go to test-artifacts/shots-translations/; axe finds nothing serious.
 */

// The stand-in's port is known only once it runs: this file starts its own servers.
const e2e = useChromium({ servers: 0, app: true });

const SHOTS = join(ARTIFACTS_DIR, 'shots-translations');
const shots = (page: Page, name: string) =>
  screenshotEveryWay(page, join(SHOTS, name), { atRest: true, scroller: page.getByTestId('translations-dialog') });
/** Runs are jobs on a loaded machine: generous deadlines. */
const poll = <T>(check: () => T | Promise<T>) => expect.poll(check, { timeout: 60_000, interval: 250 });

let engine: OpenAiStandIn;
let libreEngine: LibreTranslateStandIn;
let server: CompiledServer;
/** A server with no translation engine configured. */
let bare: CompiledServer;
/** A server whose engine (LibreTranslate) cannot follow instructions. */
let libre: CompiledServer;
let orgId = '';
let adminToken = '';
let readerToken = '';
let lastPage: Page | undefined;

const PAGES = [
  { title: 'Welcome', markdown: 'Hello from Folio.\n' },
  { title: 'Install', markdown: 'Run the installer, then open the app.\n' },
];

/** Opens the space in the app as `token` and waits for its tree. */
async function openSpace(on: CompiledServer, token: string, spaceId: string): Promise<Page> {
  // bypassCSP: axe is injected as an inline script, which the app's own policy rightly forbids.
  const page = await e2e.newPage({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
  page.setDefaultTimeout(20_000);
  lastPage = page;
  await page.goto(`${on.url}/app/s/${spaceId}`);
  await fillTokenSignIn(page, on.url, token);
  await page.getByTestId('page-tree').waitFor();
  return page;
}

async function openTranslations(page: Page): Promise<void> {
  // The menu's items are read when it opens: reopen it until the header has drawn the item.
  await poll(async () => {
    await page.getByTestId('space-actions').click();
    const found = await page.getByTestId('action-translate').count();
    if (!found) await page.keyboard.press('Escape');
    return found;
  }).toBe(1);
  await page.getByTestId('action-translate').click();
  await page.getByTestId('translations-dialog').waitFor();
  await page.getByTestId('translations-panel').waitFor();
}

const card = (page: Page, language: string) => page.locator(`[data-testid=translation][data-language=${language}]`);

/**
 * `<name>-<width>-<scheme>.png` at desktop and phone sizes, light and dark (and `…-end.png` with the
 * dialog scrolled to its end when it scrolls); leaves the page 1280 wide and light.
 */

beforeAll(async () => {
  [engine, libreEngine] = await Promise.all([startOpenAiStandIn(), startLibreTranslateStandIn()]);
  // The stand-ins are on loopback, which the outbound fetcher refuses unless allowed.
  [server, bare, libre] = await Promise.all([
    startCompiledServer({
      people: true,
      env: { FOLIO_OUTBOUND_ALLOW: '127.0.0.1', FOLIO_TRANSLATE_URL: engine.url, FOLIO_TRANSLATE_MODEL: 'stand-in' },
    }),
    startCompiledServer(),
    startCompiledServer({ env: { FOLIO_OUTBOUND_ALLOW: '127.0.0.1', FOLIO_TRANSLATE_URL: libreEngine.url } }),
  ]);
  orgId = (await server.client.orgs.createOrganization({ title: 'Translations Org' })).data.id;
  adminToken = (await newMember(server, orgId, 'admin', 'Ada Admin')).token;
  readerToken = (await newMember(server, orgId, 'read', 'Rita Reader')).token;
}, 120_000);

afterAll(async () => {
  await Promise.all([server?.close(), bare?.close(), libre?.close()]);
  await Promise.all([engine?.close(), libreEngine?.close()]);
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state !== 'fail') return;
  for (const s of [server, bare])
    if (s?.output().trim()) console.log(`[server at ${s.url}]\n${s.output().slice(-4000)}`);
  if (!lastPage || lastPage.isClosed()) return;
  await e2e.screenshot(lastPage, `translations-failure-${ctx.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}`);
  console.log('FAILED AT', lastPage.url(), (await lastPage.locator('body').innerText()).slice(0, 2000));
});

describe('Translate… on a space', () => {
  let spaceId = '';
  let pageIds: Record<string, string> = {};

  it('adds French with instructions, follows the run, and opens the translated space with its badge', async () => {
    spaceId = (await server.client.orgs.createSpace(orgId, { title: 'Handbook' })).data.id;
    pageIds = await seedPages(server, spaceId, PAGES);
    const page = await openSpace(server, adminToken, spaceId);
    await openTranslations(page);
    await page.getByTestId('translations-empty').waitFor();
    await expect(page.getByTestId('translations-panel').getAttribute('data-manage')).resolves.toBe('true');
    // The space's own language is not offered.
    const offered = await page
      .locator('[data-testid=translation-language] option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toContain('fr');
    expect(offered).not.toContain('en');
    await page.getByTestId('translation-language').selectOption('fr');
    await page.getByTestId('translation-instructions-new').fill('Keep product names in English.\nBe brief.');
    await shots(page, 'add-language');
    expect(await axeBothSchemes(page, 'add-language')).toEqual([]);

    await page.getByTestId('translation-create').click();
    await card(page, 'fr').waitFor();
    await poll(() => page.getByTestId('translation-add-said').innerText()).toContain('French added');
    // French is taken now: the picker no longer offers it.
    await expect(page.locator('[data-testid=translation-language] option[value=fr]').count()).resolves.toBe(0);
    await poll(() => card(page, 'fr').getAttribute('data-state')).toBe('succeeded');
    await expect(card(page, 'fr').getByTestId('translation-state').innerText()).resolves.toContain('Up to date');
    await expect(card(page, 'fr').getByTestId('translation-latest').innerText()).resolves.toMatch(
      /^2 pages · \d+ words/,
    );
    await expect(card(page, 'fr').getByTestId('translation-instructions').innerText()).resolves.toContain(
      'Keep product names in English.\nBe brief.',
    );
    // The engine was asked, with the instructions.
    expect(engine.requests.length).toBeGreaterThan(0);
    expect(engine.systemPrompts.join('\n')).toContain('Keep product names in English.');
    await shots(page, 'translated');
    expect(await axeBothSchemes(page, 'translated')).toEqual([]);

    // Keyboard: Tab stays in the dialog, Escape closes it.
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      const inside = await page.evaluate(
        () =>
          !!document.activeElement?.closest('[data-testid=translations-dialog]') ||
          document.activeElement === document.body,
      );
      expect(inside).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.getByTestId('translations-dialog').waitFor({ state: 'detached' });

    // The translated space: titles from the engine, and the badge back to the source.
    await openTranslations(page);
    const resultSpace = (
      await callApi<{ items: { source: { space: string }; result?: { space: string } }[] }>(
        server,
        adminToken,
        'GET',
        `/orgs/${orgId}/translations`,
      )
    ).items.find((t) => t.source.space === spaceId)!.result!.space;
    await card(page, 'fr').getByTestId('translation-open').click();
    await page.getByTestId('translations-dialog').waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname.includes(`/s/${resultSpace}`));
    const titles = PAGES.map((p) => fakeTranslate(p.title, 'fr'));
    await poll(async () => (await page.locator('[data-testid=tree-row]').allInnerTexts()).map((t) => t.trim())).toEqual(
      titles,
    );
    const badge = page.getByTestId('translation-badge');
    await poll(() => badge.innerText()).toBe('Français · translated from Handbook');
    await shots(page, 'result-space');
    expect(await axeBothSchemes(page, 'result-space')).toEqual([]);
    await badge.click();
    await page.waitForURL((url) => url.pathname.includes(`/s/${spaceId}`));
    await page.getByTestId('page-tree').waitFor();
  });

  it('runs again after a source edit (1 page), edits the instructions, and proposes a hand-edited page for review', async () => {
    await updatePages(server, spaceId, [{ page: pageIds.Install!, markdown: 'Run the new installer.\n' }]);
    const page = await openSpace(server, adminToken, spaceId);
    await openTranslations(page);
    const fr = card(page, 'fr');
    await poll(() => fr.getAttribute('data-state')).toBe('succeeded');
    const runs = await fr.getByTestId('translation-total').innerText();
    await fr.getByTestId('translation-run').click();
    await poll(async () => {
      const state = await fr.getAttribute('data-state');
      return `${state} ${(await fr.getByTestId('translation-total').innerText()) !== runs}`;
    }).toBe('succeeded true');
    await expect(fr.getByTestId('translation-latest').innerText()).resolves.toMatch(/^1 page · \d+ words?/);
    await expect(fr.getByTestId('translation-run').isDisabled()).resolves.toBe(false);

    // The instructions, edited in place (Escape leaves the editor, not the dialog), then saved.
    await fr.getByTestId('translation-edit-instructions').click();
    await fr.getByTestId('translation-instructions-input').fill('Draft');
    await page.keyboard.press('Escape');
    await fr.getByTestId('translation-instructions-input').waitFor({ state: 'detached' });
    await expect(page.getByTestId('translations-dialog').isVisible()).resolves.toBe(true);
    await fr.getByTestId('translation-edit-instructions').click();
    await fr.getByTestId('translation-instructions-input').fill('Keep product names in English.\nUse “vous”.');
    await fr.getByTestId('translation-instructions-save').click();
    await poll(() => fr.getByTestId('translation-instructions').innerText()).toContain('Use “vous”.');
    const saved = await callApi<{ items: { source: { space: string }; instructions: { nodes: unknown[] } }[] }>(
      server,
      adminToken,
      'GET',
      `/orgs/${orgId}/translations`,
    );
    expect(saved.items.find((t) => t.source.space === spaceId)!.instructions.nodes).toHaveLength(2);

    // A page of the translated space edited by hand is kept: the next run proposes its translation for review.
    const resultSpace = (saved.items.find((t) => t.source.space === spaceId) as { result?: { space: string } }).result!
      .space;
    const resultPages = await callApi<{ pages: { id: string; title: string }[] }>(
      server,
      adminToken,
      'GET',
      `/spaces/${resultSpace}/content`,
    );
    const install = resultPages.pages.find((p) => p.title === fakeTranslate('Install', 'fr'))!;
    await updatePages(server, resultSpace, [{ page: install.id, markdown: 'Lancez l’installateur.\n' }]);
    await updatePages(server, spaceId, [{ page: pageIds.Install!, markdown: 'Run the newest installer.\n' }]);
    const before = await fr.getByTestId('translation-total').innerText();
    await fr.getByTestId('translation-run').click();
    await poll(async () => {
      const state = await fr.getAttribute('data-state');
      return `${state} ${(await fr.getByTestId('translation-total').innerText()) !== before}`;
    }).toBe('succeeded true');
    const review = fr.getByTestId('translation-review');
    await expect(review.innerText()).resolves.toContain('1 page of the translated space was edited by hand');
    await expect(fr.getByTestId('translation-state').innerText()).resolves.toContain('Translated · 1 page to review');
    await shots(page, 'review');
    expect(await axeBothSchemes(page, 'review')).toEqual([]);
    await review.getByTestId('translation-review-link').click();
    await page.getByTestId('translations-dialog').waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname.includes(`/s/${resultSpace}/cr/`));
    await page.getByTestId('cr-badge').waitFor();
  });

  it('shows a run in progress, and deletes that translation after a confirmation (its run cancelled)', async () => {
    const page = await openSpace(server, adminToken, spaceId);
    await openTranslations(page);
    await page.getByTestId('translation-add-open').click();
    // The opened form focuses its picker in an effect, after its first paint.
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe('tr-add-language');
    // The engine holds its next answer: German's first run stays running until it is deleted.
    engine.stall(1);
    await page.getByTestId('translation-language').selectOption('de');
    await page.getByTestId('translation-create').click();
    const de = card(page, 'de');
    await poll(() => de.getAttribute('data-state')).toBe('running');
    await poll(() => de.getByTestId('translation-progress').innerText()).toBe('0 of 2 pages');
    await expect(de.getByTestId('translation-run').isDisabled()).resolves.toBe(true);
    await expect(de.getByTestId('translation-state').innerText()).resolves.toContain('Translating…');
    await shots(page, 'running');
    expect(await axeBothSchemes(page, 'running')).toEqual([]);

    await de.getByTestId('translation-delete').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await expect(page.getByTestId('confirm-dialog').innerText()).resolves.toContain(
      'Delete the German translation? It has no translated space yet.',
    );
    await page.keyboard.press('Escape');
    await page.getByTestId('confirm-dialog').waitFor({ state: 'detached' });
    await expect(de.count()).resolves.toBe(1);
    await de.getByTestId('translation-delete').click();
    await page.getByTestId('confirm-yes').click();
    await de.waitFor({ state: 'detached' });
    const left = await callApi<{ items: { language: string }[] }>(
      server,
      adminToken,
      'GET',
      `/orgs/${orgId}/translations`,
    );
    expect(left.items.map((t) => t.language)).toEqual(['fr']);
  });

  it('edits the glossary: checks terms before sending, saves them as one change, keeps them after a reload', async () => {
    const page = await openSpace(server, adminToken, spaceId);
    await openTranslations(page);
    await page.getByTestId('translations-tab-glossary').click();
    await page.getByTestId('glossary').waitFor();
    await expect(page.locator('[data-testid=glossary-table] thead th').allInnerTexts()).resolves.toEqual([
      'English',
      'Français French',
      'Row actions',
    ]);
    await page.getByTestId('glossary-add-row').click();
    const row = page.getByTestId('glossary-row').last();
    await row.getByTestId('glossary-cell-en').fill('workspace');
    await row.getByTestId('glossary-cell-fr').fill('x'.repeat(256));
    await page.getByTestId('glossary-save').click();
    await poll(() => page.getByTestId('glossary-error').innerText()).toBe('One term needs fixing before saving.');
    await expect(row.getByTestId('glossary-cell-error').innerText()).resolves.toContain('At most 255 characters');
    await expect(row.getByTestId('glossary-cell-fr').getAttribute('aria-invalid')).resolves.toBe('true');
    // Nothing was sent.
    expect(
      (await callApi<{ items: unknown[] }>(server, adminToken, 'GET', `/orgs/${orgId}/translations-glossary`)).items,
    ).toEqual([]);
    await shots(page, 'glossary-error');
    expect(await axeBothSchemes(page, 'glossary-error')).toEqual([]);

    await row.getByTestId('glossary-cell-fr').fill('espace de travail');
    await page.getByTestId('glossary-save').click();
    await poll(() => page.getByTestId('glossary-said').innerText()).toBe('Glossary saved.');
    const saved = await callApi<{ items: { translations: Record<string, string> }[] }>(
      server,
      adminToken,
      'GET',
      `/orgs/${orgId}/translations-glossary`,
    );
    expect(saved.items.map((e) => e.translations)).toEqual([{ en: 'workspace', fr: 'espace de travail' }]);

    await page.reload();
    await page.getByTestId('page-tree').waitFor();
    await openTranslations(page);
    await page.getByTestId('translations-tab-glossary').click();
    const first = page.getByTestId('glossary-row').first();
    await poll(() => first.getByTestId('glossary-cell-en').inputValue()).toBe('workspace');
    await expect(first.getByTestId('glossary-cell-fr').inputValue()).resolves.toBe('espace de travail');
    await shots(page, 'glossary');
    expect(await axeBothSchemes(page, 'glossary')).toEqual([]);
  });

  it('shows a reader the translations and the glossary read-only', async () => {
    const page = await openSpace(server, readerToken, spaceId);
    await openTranslations(page);
    await expect(page.getByTestId('translations-panel').getAttribute('data-manage')).resolves.toBe('false');
    const fr = card(page, 'fr');
    await expect(fr.getByTestId('translation-state').innerText()).resolves.toContain('Translated · 1 page to review');
    await expect(fr.getByTestId('translation-review-link').count()).resolves.toBe(1);
    await expect(fr.getByTestId('translation-open').count()).resolves.toBe(1);
    await page.getByTestId('translations-readonly').waitFor();
    // No controls: no form, and Close is the only button of the languages.
    await expect(page.getByTestId('translation-add').count()).resolves.toBe(0);
    await expect(
      page
        .locator('#translations-languages button, #translations-languages input, #translations-languages select')
        .count(),
    ).resolves.toBe(0);
    await shots(page, 'reader');
    expect(await axeBothSchemes(page, 'reader')).toEqual([]);
    await page.getByTestId('translations-tab-glossary').click();
    await poll(() => page.locator('[data-testid=glossary-row] td').first().innerText()).toBe('workspace');
    await expect(page.locator('[data-testid=glossary] input, [data-testid=glossary] button').count()).resolves.toBe(0);
    await shots(page, 'reader-glossary');
    expect(await axeBothSchemes(page, 'reader-glossary')).toEqual([]);
  });
});

describe('Translate… on a server without a translation engine', () => {
  it('says so up front, still creates the translation, and shows why its run failed', async () => {
    const org = (await bare.client.orgs.createOrganization({ title: 'No Engine Org' })).data.id;
    const space = (await bare.client.orgs.createSpace(org, { title: 'Guide' })).data.id;
    await seedPages(bare, space, PAGES);
    const page = await openSpace(bare, bare.adminToken, space);
    await openTranslations(page);
    await page.getByTestId('translation-language').selectOption('de');
    await page.getByTestId('translation-create').click();
    await card(page, 'de').waitFor();
    // Every translation says the server has no engine: the notice, and the warning of the form.
    await page.getByTestId('translations-no-engine').waitFor();
    await expect(page.getByTestId('translations-no-engine').innerText()).resolves.toContain('FOLIO_TRANSLATE_URL');
    await page.getByTestId('translation-add-no-engine').waitFor();
    await poll(() => card(page, 'de').getAttribute('data-state')).toBe('failed');
    await expect(card(page, 'de').getByTestId('translation-error').innerText()).resolves.not.toBe('');
    await shots(page, 'no-engine');
    expect(await axeBothSchemes(page, 'no-engine')).toEqual([]);

    // Delete asks first and says the translated space is kept.
    await card(page, 'de').getByTestId('translation-delete').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await expect(page.getByTestId('confirm-dialog').innerText()).resolves.toContain('German translation');
    await page.getByTestId('confirm-yes').click();
    await card(page, 'de').waitFor({ state: 'detached' });
    await page.getByTestId('translations-empty').waitFor();
  });
});

describe('Translate… with an engine that cannot follow instructions', () => {
  it('disables instructions, saying why, once the engine is known', async () => {
    const org = (await libre.client.orgs.createOrganization({ title: 'Libre Org' })).data.id;
    const space = (await libre.client.orgs.createSpace(org, { title: 'Manual' })).data.id;
    await seedPages(libre, space, PAGES);
    const page = await openSpace(libre, libre.adminToken, space);
    await openTranslations(page);
    await page.getByTestId('translation-language').selectOption('es');
    await page.getByTestId('translation-create').click();
    const es = card(page, 'es');
    await poll(() => es.getAttribute('data-state')).toBe('succeeded');
    expect(libreEngine.requests.length).toBeGreaterThan(0);
    // The translation says which engine the server has: instructions are off, here and in the form.
    await expect(es.getByTestId('translation-edit-instructions').isDisabled()).resolves.toBe(true);
    await expect(es.getByTestId('translation-no-instructions').innerText()).resolves.toContain(
      'LibreTranslate cannot follow instructions',
    );
    await expect(page.getByTestId('translation-instructions-new').isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('translation-instructions-hint').innerText()).resolves.toContain(
      'LibreTranslate cannot follow instructions',
    );
    await shots(page, 'no-instructions');
    expect(await axeBothSchemes(page, 'no-instructions')).toEqual([]);
  });
});
