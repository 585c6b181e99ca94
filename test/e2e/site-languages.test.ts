import { screenshotEveryWay } from '../helpers/screenshots';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeScan, seriousFindings } from '../helpers/axe';
import { ARTIFACTS_DIR, useChromium } from '../helpers/browser';
import { seedPages, type SeedPage } from '../helpers/seed';

/**
 * A published site in English, French, Japanese and Arabic as a reader meets it in real Chromium:
 * the header's language menu at desktop and phone widths (clicked open, a language picked, the
 * same page in that language; a page not translated yet leads to that language's first page), the
 * menu closing on Escape, the Arabic page laid out right to left (page tree on the right, the
 * drawer from the right), and axe finding nothing serious. Screenshots at 1280x800 and 390x844,
 * light and dark, go to test-artifacts/shots-site-languages/.
 */
const e2e = useChromium();
const SHOTS = join(ARTIFACTS_DIR, 'shots-site-languages');
const shots = (page: Page, name: string) => screenshotEveryWay(page, join(SHOTS, name), { fullPage: false });
let home = '';

/** The same page tree in each language: translations keep slugs, so every page has one path. */
const page = (ref: string, title: string, slug: string, markdown: string, parent?: string): SeedPage => ({
  ref,
  title,
  slug,
  markdown,
  ...(parent ? { parent } : {}),
});
const TREES: Record<string, { title: string; pages: SeedPage[] }> = {
  en: {
    title: 'Handbook',
    pages: [
      page(
        'intro',
        'Introduction',
        'introduction',
        'Welcome to the Northwind handbook.\n\n## Who it is for\n\nEveryone.\n',
      ),
      page('guide', 'Guide', 'guide', 'How to use Northwind day to day.\n'),
      page(
        'install',
        'Install',
        'install',
        'Install the client on your machine.\n\n## Requirements\n\nNode 20 or later.\n\n```bash\nnpm install -g northwind\n```\n\n## Verify\n\nRun `northwind --version`.\n',
        'guide',
      ),
      page('changelog', 'Changelog', 'changelog', 'What changed in each release.\n'),
    ],
  },
  fr: {
    title: 'Manuel',
    pages: [
      page(
        'intro',
        'Présentation',
        'introduction',
        'Bienvenue dans le manuel Northwind.\n\n## Pour qui\n\nTout le monde.\n',
      ),
      page('guide', 'Guide', 'guide', 'Utiliser Northwind au quotidien.\n'),
      page(
        'install',
        'Installation',
        'install',
        'Installez le client sur votre machine.\n\n## Prérequis\n\nNode 20 ou plus récent.\n\n```bash\nnpm install -g northwind\n```\n\n## Vérifier\n\nLancez `northwind --version`.\n',
        'guide',
      ),
    ],
  },
  ja: {
    title: 'ハンドブック',
    pages: [
      page('intro', 'はじめに', 'introduction', 'Northwind ハンドブックへようこそ。\n\n## 対象読者\n\nすべての方。\n'),
      page('guide', 'ガイド', 'guide', '日々の Northwind の使い方。\n'),
      page(
        'install',
        'インストール',
        'install',
        'お使いのマシンにクライアントをインストールします。\n\n## 必要なもの\n\nNode 20 以降。\n\n```bash\nnpm install -g northwind\n```\n\n## 確認\n\n`northwind --version` を実行します。\n',
        'guide',
      ),
    ],
  },
  ar: {
    title: 'الدليل',
    pages: [
      page(
        'intro',
        'مقدمة',
        'introduction',
        'مرحبا بكم في دليل نورثويند. يشرح هذا الدليل كيفية تثبيت العميل واستخدامه كل يوم.\n\n## لمن هذا الدليل\n\nلكل من يعمل مع نورثويند.\n\n## الخطوات التالية\n\nابدأ بتثبيت العميل ثم اقرأ الإرشادات.\n',
      ),
    ],
  },
};

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${e2e.server.url}/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${e2e.server.adminToken}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? undefined : await res.json()) as T;
}

beforeAll(async () => {
  const orgId = (await api<{ id: string }>('POST', '/orgs', { title: 'Northwind' })).id;
  const spaceIds: string[] = [];
  for (const [language, tree] of Object.entries(TREES)) {
    const id = (await api<{ id: string }>('POST', `/orgs/${orgId}/spaces`, { title: tree.title })).id;
    await api('PATCH', `/spaces/${id}`, { language });
    await seedPages(e2e.server, id, tree.pages);
    spaceIds.push(id);
  }
  const siteId = (await api<{ id: string }>('POST', `/orgs/${orgId}/sites`, { title: 'Northwind', spaces: spaceIds }))
    .id;
  const siteSpaces = await api<{ items: { id: string }[] }>('GET', `/orgs/${orgId}/sites/${siteId}/site-spaces`);
  const paths = Object.keys(TREES);
  for (const [i, ss] of siteSpaces.items.entries())
    await api('PATCH', `/orgs/${orgId}/sites/${siteId}/site-spaces/${ss.id}`, { path: paths[i] });
  await api('POST', `/orgs/${orgId}/sites/${siteId}/publish`);
  home = `${e2e.server.url}/sites/${siteId}/`;
}, 120_000);

async function open(path: string, width: number, height: number): Promise<Page> {
  // bypassCSP: axe is injected as an inline script, which the site's policy forbids.
  const p = await e2e.newPage({ viewport: { width, height }, bypassCSP: true });
  p.setDefaultTimeout(15_000);
  await p.goto(home + path);
  return p;
}

/** Screenshots of the page as it is, at desktop and phone sizes, light and dark. */

const switcher = (p: Page) => p.locator('nav[aria-label="Languages"]');
const heading = (p: Page) => p.locator('main h1').textContent();
/** How far the page scrolls sideways (a right-to-left page scrolls to the left: nothing may stick out there either). */
const overflow = (p: Page) =>
  p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const lang = (p: Page) => p.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);

describe('the language menu', () => {
  it('switches language on the same page at desktop width', async () => {
    const p = await open('guide/install', 1280, 800);
    expect(await switcher(p).locator('summary').textContent()).toBe('English');
    await switcher(p).locator('summary').click();
    const entries = switcher(p).locator('ul a');
    expect(await entries.allTextContents()).toEqual(['English', 'Français', '日本語', 'العربية']);
    expect(await entries.first().getAttribute('aria-current')).toBe('page');
    await shots(p, 'menu-open');
    await p.setViewportSize({ width: 1280, height: 800 });
    await switcher(p).getByText('Français').click();
    await p.waitForURL(`${home}fr/guide/install`);
    expect(await heading(p)).toBe('Installation');
    expect(await lang(p)).toEqual(['fr', '']);
    expect(await switcher(p).locator('summary').textContent()).toBe('Français');
    await shots(p, 'french-page');
  });

  it('switches language from the header at phone width', async () => {
    const p = await open('fr/guide/install', 390, 844);
    // The header keeps the globe in reach; the language's name is there for screen readers.
    const button = switcher(p).locator('summary');
    expect(await button.isVisible()).toBe(true);
    const box = await button.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await overflow(p)).toBeLessThanOrEqual(0);
    await button.click();
    const menu = switcher(p).locator('ul');
    const menuBox = await menu.boundingBox();
    expect(menuBox!.x).toBeGreaterThanOrEqual(0);
    expect(menuBox!.x + menuBox!.width).toBeLessThanOrEqual(390);
    await switcher(p).getByText('日本語').click();
    await p.waitForURL(`${home}ja/guide/install`);
    expect(await heading(p)).toBe('インストール');
    expect(await lang(p)).toEqual(['ja', '']);
  });

  it('leads a page not translated yet to the language’s first page, and closes on Escape', async () => {
    const p = await open('changelog', 1280, 800);
    const button = switcher(p).locator('summary');
    await button.click();
    expect(await switcher(p).locator('ul').isVisible()).toBe(true);
    await p.keyboard.press('Escape');
    expect(await switcher(p).locator('ul').isVisible()).toBe(false);
    expect(await p.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
    await button.click();
    await p.click('main h1');
    expect(await switcher(p).locator('ul').isVisible()).toBe(false);
    await button.click();
    await switcher(p).getByText('Français').click();
    await p.waitForURL(`${home}fr/`);
    expect(await heading(p)).toBe('Présentation');
  });
});

describe('right to left', () => {
  it('lays the Arabic page out right to left, the page tree on the right', async () => {
    const p = await open('ar/', 1280, 800);
    expect(await lang(p)).toEqual(['ar', 'rtl']);
    const sidebar = (await p.locator('.sidebar').boundingBox())!;
    const main = (await p.locator('main').boundingBox())!;
    expect(sidebar.x).toBeGreaterThan(main.x);
    expect(await overflow(p)).toBeLessThanOrEqual(0);
    // The text starts at the right edge of the column.
    expect(
      await p
        .locator('article p')
        .first()
        .evaluate((el) => getComputedStyle(el).direction),
    ).toBe('rtl');
    await shots(p, 'arabic-page');
    await p.setViewportSize({ width: 1280, height: 800 });
    await switcher(p).locator('summary').click();
    await shots(p, 'arabic-menu-open');
  });

  it('opens the drawer from the right on a phone', async () => {
    const p = await open('ar/', 390, 844);
    await p.click('[data-testid=site-menu]');
    await expect.poll(() => p.locator('.sidebar').isVisible()).toBe(true);
    const drawer = (await p.locator('.sidebar').boundingBox())!;
    expect(Math.round(drawer.x + drawer.width)).toBe(390);
    expect(await overflow(p)).toBeLessThanOrEqual(0);
    await shots(p, 'arabic-drawer');
  });
});

describe('accessibility', () => {
  for (const [name, path] of [
    ['english', 'guide/install'],
    ['arabic', 'ar/'],
  ] as const)
    it(`finds nothing serious with the ${name} page's language menu open (light and dark)`, async () => {
      const p = await open(path, 1280, 800);
      await switcher(p).locator('summary').click();
      for (const scheme of ['light', 'dark'] as const) {
        await p.emulateMedia({ colorScheme: scheme });
        expect(seriousFindings(await axeScan(p))).toEqual([]);
      }
      await p.setViewportSize({ width: 390, height: 844 });
      expect(seriousFindings(await axeScan(p))).toEqual([]);
    });
});
