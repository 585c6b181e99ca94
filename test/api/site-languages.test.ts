import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { parseHTML } from 'linkedom';
import { Globe } from 'lucide';
import { startTestServer, type TestServer } from '../helpers/server';
import { raw } from '../helpers/api';
import { httpGet } from '../helpers/http-get';
import { seedPages, type SeedPage } from '../helpers/seed';

/**
 * Translations on a published site: site spaces in different languages become language variants
 * with a language switcher (native names, `lang`/`hreflang`, the current one marked) whose links
 * keep the reader on the same page when that language has it; `<html lang>`, `dir="rtl"` and the
 * `hreflang` alternates follow the space shown. Variants of one language keep the version switcher.
 */
let t: TestServer;
let orgId: string;
const spaces: Record<string, string> = {};

/** The same page tree in each language (translations keep slugs, so paths match). */
const TREE: Record<string, SeedPage[]> = {
  en: [
    { ref: 'intro', title: 'Introduction', slug: 'introduction', markdown: 'Welcome to the handbook.\n' },
    { ref: 'guide', title: 'Guide', slug: 'guide', markdown: 'How to use it.\n' },
    { ref: 'install', title: 'Install', slug: 'install', parent: 'guide', markdown: 'Run the installer.\n' },
    // Not translated yet: the other languages fall back to their first page.
    { ref: 'changelog', title: 'Changelog', slug: 'changelog', markdown: 'What changed.\n' },
  ],
  fr: [
    { ref: 'intro', title: 'Présentation', slug: 'introduction', markdown: 'Bienvenue dans le manuel.\n' },
    { ref: 'guide', title: 'Guide', slug: 'guide', markdown: 'Comment s’en servir.\n' },
    { ref: 'install', title: 'Installation', slug: 'install', parent: 'guide', markdown: 'Lancez l’installeur.\n' },
  ],
  ja: [
    { ref: 'intro', title: 'はじめに', slug: 'introduction', markdown: 'ハンドブックへようこそ。\n' },
    { ref: 'guide', title: 'ガイド', slug: 'guide', markdown: '使い方。\n' },
    {
      ref: 'install',
      title: 'インストール',
      slug: 'install',
      parent: 'guide',
      markdown: 'インストーラーを実行します。\n',
    },
  ],
  ar: [{ ref: 'intro', title: 'مقدمة', slug: 'introduction', markdown: 'مرحبا بكم في الدليل.\n' }],
};

async function space(key: string, title: string, language: string | null, pages: SeedPage[]): Promise<string> {
  const id = (await t.client.orgs.createSpace(orgId, { title })).data.id;
  if (language) {
    const res = await raw(t, 'PATCH', `/v1/spaces/${id}`, { token: t.adminToken, body: { language } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  await seedPages(t, id, pages);
  spaces[key] = id;
  return id;
}

/** A published site of `spaceIds` (root-level site spaces, in order), with site-space paths `paths`. */
async function site(title: string, spaceIds: string[], paths: string[]): Promise<string> {
  const siteId = (await t.client.orgs.createSite(orgId, { title, spaces: spaceIds })).data.id;
  const items = (await t.client.orgs.listSiteSpaces(orgId, siteId)).data.items;
  for (const [i, item] of items.entries())
    await t.client.orgs.updateSiteSpaceById(orgId, siteId, item.id, { path: paths[i]! });
  await t.client.orgs.publishSite(orgId, siteId);
  return siteId;
}

/** The published page at `path`, parsed. */
async function open(path: string) {
  const res = await httpGet(t.url, path);
  return { status: res.status, body: res.body, document: parseHTML(res.body).document };
}

type Doc = Awaited<ReturnType<typeof open>>['document'];

/** The language switcher's entries as a reader (and a crawler) sees them. */
function switcher(document: Doc) {
  const nav = document.querySelector('nav[aria-label="Languages"]');
  if (!nav) return undefined;
  return Array.from(nav.querySelectorAll('ul a')).map((a) => ({
    name: a.textContent,
    href: a.getAttribute('href'),
    lang: a.getAttribute('lang'),
    hreflang: a.getAttribute('hreflang'),
    current: a.getAttribute('aria-current'),
  }));
}

const alternates = (document: Doc) =>
  Array.from(document.querySelectorAll('link[rel=alternate][hreflang]')).map((l) => [
    l.getAttribute('hreflang'),
    l.getAttribute('href'),
  ]);

const html = (document: Doc) => ({
  lang: document.documentElement.getAttribute('lang'),
  dir: document.documentElement.getAttribute('dir'),
});

let languagesSite: string;
let base: string;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Languages Org' })).data.id;
  await space('en', 'Handbook', 'en', TREE.en!);
  await space('fr', 'Manuel', 'fr', TREE.fr!);
  await space('ja', 'ハンドブック', 'ja', TREE.ja!);
  await space('ar', 'دليل', 'ar', TREE.ar!);
  languagesSite = await site('Handbook', [spaces.en!, spaces.fr!, spaces.ja!], ['en', 'fr', 'ja']);
  base = `/sites/${languagesSite}/`;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('a site with translations', () => {
  it('shows a language switcher: native names, lang and hreflang, the current language marked', async () => {
    const { status, document } = await open(`${base}guide/install`);
    expect(status).toBe(200);
    expect(switcher(document)).toEqual([
      { name: 'English', href: `${base}guide/install`, lang: 'en', hreflang: 'en', current: 'page' },
      { name: 'Français', href: `${base}fr/guide/install`, lang: 'fr', hreflang: 'fr', current: null },
      { name: '日本語', href: `${base}ja/guide/install`, lang: 'ja', hreflang: 'ja', current: null },
    ]);
    // The button names the language being read, in that language, beside Lucide's globe.
    const summary = document.querySelector('nav[aria-label="Languages"] summary')!;
    expect(summary.querySelector('[lang=en]')?.textContent).toBe('English');
    const globe = summary.querySelector('svg.i-globe')!;
    expect(globe.getAttribute('aria-hidden')).toBe('true');
    for (const [tag, attrs] of Globe) {
      const drawn = Array.from(globe.querySelectorAll(tag)).map((el) =>
        Object.keys(attrs).map((k) => el.getAttribute(k)),
      );
      expect(drawn).toContainEqual(Object.values(attrs));
    }
    // Languages are not versions: no version switcher beside the language switcher.
    expect(document.querySelector('nav.variants')).toBeNull();
  });

  it('keeps the reader on the same page in every language, and marks the one being read', async () => {
    const fr = await open(`${base}fr/guide/install`);
    expect(fr.document.querySelector('h1.title')?.textContent).toBe('Installation');
    expect(switcher(fr.document)?.map((e) => [e.name, e.href, e.current])).toEqual([
      ['English', `${base}guide/install`, null],
      ['Français', `${base}fr/guide/install`, 'page'],
      ['日本語', `${base}ja/guide/install`, null],
    ]);
    // Each language's first page is its site space's root.
    const home = await open(`${base}ja/`);
    expect(home.document.querySelector('h1.title')?.textContent).toBe('はじめに');
    expect(switcher(home.document)?.map((e) => e.href)).toEqual([base, `${base}fr/`, `${base}ja/`]);
  });

  it('links a page missing in a language to that language’s first page', async () => {
    const { document } = await open(`${base}changelog`);
    expect(switcher(document)?.map((e) => e.href)).toEqual([`${base}changelog`, `${base}fr/`, `${base}ja/`]);
    // A page in one language has no alternates.
    expect(alternates(document)).toEqual([]);
    // A not-found page offers every language's first page.
    const missing = await open(`${base}fr/nowhere`);
    expect(missing.status).toBe(404);
    expect(switcher(missing.document)?.map((e) => [e.href, e.current])).toEqual([
      [base, null],
      [`${base}fr/`, 'page'],
      [`${base}ja/`, null],
    ]);
    expect(html(missing.document)).toEqual({ lang: 'fr', dir: null });
  });

  it('sets <html lang> to the space shown and lists the page in every language as alternates', async () => {
    const origin = t.url;
    for (const [path, lang] of [
      ['guide/install', 'en'],
      ['fr/guide/install', 'fr'],
      ['ja/guide/install', 'ja'],
    ] as const) {
      const { document } = await open(base + path);
      expect(html(document)).toEqual({ lang, dir: null });
      expect(alternates(document)).toEqual([
        ['en', `${origin}${base}guide/install`],
        ['fr', `${origin}${base}fr/guide/install`],
        ['ja', `${origin}${base}ja/guide/install`],
        ['x-default', `${origin}${base}guide/install`],
      ]);
    }
  });

  it('names the alternates in sitemap.xml too', async () => {
    const sitemap = (await httpGet(t.url, `${base}sitemap.xml`)).body;
    expect(sitemap).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    const abs = `${t.url}${base}`;
    const entry = (loc: string) => new RegExp(`<url><loc>${loc}</loc>.*?</url>`).exec(sitemap)?.[0] ?? '';
    const links = (loc: string) =>
      [...entry(loc).matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map((m) => [
        m[1],
        m[2],
      ]);
    const install = [
      ['en', `${abs}guide/install`],
      ['fr', `${abs}fr/guide/install`],
      ['ja', `${abs}ja/guide/install`],
      ['x-default', `${abs}guide/install`],
    ];
    expect(links(`${abs}fr/guide/install`)).toEqual(install);
    expect(links(`${abs}ja/`)).toEqual([
      ['en', abs],
      ['fr', `${abs}fr/`],
      ['ja', `${abs}ja/`],
      ['x-default', abs],
    ]);
    // The page in English only has none.
    expect(entry(`${abs}changelog`)).not.toBe('');
    expect(links(`${abs}changelog`)).toEqual([]);
  });

  it('shows a language change at once', async () => {
    const res = await raw(t, 'PATCH', `/v1/spaces/${spaces.fr}`, { token: t.adminToken, body: { language: 'de' } });
    expect(res.status).toBe(200);
    const { document } = await open(`${base}fr/guide/install`);
    expect(html(document).lang).toBe('de');
    expect(switcher(document)?.[1]).toMatchObject({ name: 'Deutsch', lang: 'de', hreflang: 'de', current: 'page' });
    await raw(t, 'PATCH', `/v1/spaces/${spaces.fr}`, { token: t.adminToken, body: { language: 'fr' } });
    expect(switcher((await open(`${base}fr/guide/install`)).document)?.[1]?.name).toBe('Français');
  });
});

describe('adaptive content', () => {
  it('links a page hidden from the visitor in another language to that language’s first page', async () => {
    const beta = 'visitor.claims.isBeta == true';
    const frBeta = await space('frBeta', 'Manuel bêta', 'fr', [
      ...TREE.fr!.slice(0, 2),
      { ...TREE.fr![2]!, condition: beta },
    ]);
    const siteId = (await t.client.orgs.createSite(orgId, { title: 'Beta', spaces: [spaces.en!, frBeta] })).data.id;
    const items = (await t.client.orgs.listSiteSpaces(orgId, siteId)).data.items;
    await t.client.orgs.updateSiteSpaceById(orgId, siteId, items[1]!.id, { path: 'fr' });
    await t.client.orgs.updateSiteById(orgId, siteId, { adaptiveContent: { enabled: true } });
    await t.client.orgs.publishSite(orgId, siteId);
    const key = (await t.client.orgs.getSitePublishingAuthById(orgId, siteId)).data.privateKey;
    const jwt = await new SignJWT({ isBeta: true })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(key));
    const root = `/sites/${siteId}/`;
    const french = async (query = '') =>
      switcher((await open(`${root}guide/install${query}`)).document)?.find((e) => e.lang === 'fr')?.href;
    // The English page is the same for both visitors; its French link is not (and is not cached as one).
    expect(await french()).toBe(`${root}fr/`);
    expect(await french(`?jwt_token=${jwt}`)).toBe(`${root}fr/guide/install`);
    expect(await french()).toBe(`${root}fr/`);
  });
});

describe('right-to-left languages', () => {
  it('sets dir="rtl" on Arabic pages and names Arabic in Arabic', async () => {
    const siteId = await site('Guide', [spaces.en!, spaces.ar!], ['en', 'ar']);
    const ar = await open(`/sites/${siteId}/ar/`);
    expect(ar.status).toBe(200);
    expect(html(ar.document)).toEqual({ lang: 'ar', dir: 'rtl' });
    expect(ar.document.querySelector('h1.title')?.textContent).toBe('مقدمة');
    expect(switcher(ar.document)?.map((e) => [e.name, e.lang, e.current])).toEqual([
      ['English', 'en', null],
      ['العربية', 'ar', 'page'],
    ]);
    // The English side stays left to right.
    expect(html((await open(`/sites/${siteId}/`)).document)).toEqual({ lang: 'en', dir: null });
  });
});

describe('variants of one language', () => {
  it('keep the version switcher, with no language switcher or alternates', async () => {
    // A space without a language counts as English, like GitBook's sites count it.
    const v1 = await space('v1', 'Handbook v1', null, TREE.en!.slice(0, 2));
    const v2 = await space('v2', 'Handbook v2', 'en', TREE.en!.slice(0, 2));
    const siteId = await site('Versions', [v1, v2], ['v1', 'v2']);
    const { document } = await open(`/sites/${siteId}/v2/guide`);
    expect(switcher(document)).toBeUndefined();
    expect(alternates(document)).toEqual([]);
    expect(html(document)).toEqual({ lang: 'en', dir: null });
    const versions = document.querySelector('nav.variants[aria-label="Versions"]');
    expect(
      Array.from(versions!.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('aria-current')]),
    ).toEqual([
      ['Handbook v1', null],
      ['Handbook v2', 'page'],
    ]);
  });

  it('mixed with a translation: one switcher for the language, one for the versions of it', async () => {
    const v1 = spaces.v1!;
    const v2 = spaces.v2!;
    const siteId = await site('Mixed', [v1, v2, spaces.fr!], ['v1', 'v2', 'fr']);
    const root = `/sites/${siteId}/`;
    const en = await open(`${root}v2/guide`);
    // The language being read is its version being read; French is its one site space.
    expect(switcher(en.document)?.map((e) => [e.name, e.href, e.current])).toEqual([
      ['English', `${root}v2/guide`, 'page'],
      ['Français', `${root}fr/guide`, null],
    ]);
    const versions = en.document.querySelectorAll('nav.variants a');
    expect(Array.from(versions).map((a) => a.textContent)).toEqual(['Handbook v1', 'Handbook v2']);
    // In French: English is its first version, and there is no version switcher (one French variant).
    const fr = await open(`${root}fr/guide`);
    expect(switcher(fr.document)?.map((e) => [e.name, e.href])).toEqual([
      ['English', `${root}guide`],
      ['Français', `${root}fr/guide`],
    ]);
    expect(fr.document.querySelector('nav.variants')).toBeNull();
  });
});
