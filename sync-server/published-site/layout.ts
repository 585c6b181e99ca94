import { createHash } from 'node:crypto';
import type { StoredPage } from '../docs/revision-store';
import type { PublishedLook } from './look';
import { ICON } from './icons';
import { alternateLinks, htmlLanguage, languageSwitcher, type Alternate, type LanguageLink } from './language-switcher';
import { escapeHtml } from './markdown';
import { THEME_BOOT, THEME_BOOT_HASH } from './site-script';
import { STYLE } from './style';

/**
 * The HTML shell of published pages, laid out like GitBook's sites: a header
 * (site title, section tabs, language menu, search and theme buttons), the page
 * tree (with the version switcher between site spaces), the page with breadcrumbs and
 * previous/next links, and its table of contents. Everything is plain HTML
 * and CSS; the one external script (site-script.ts) only enhances. The inline
 * stylesheet and the inline theme boot script are allowed by their hashes in
 * a strict Content-Security-Policy.
 */

/** CSP hash of the inline stylesheet. */
export const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * The Content-Security-Policy of published pages: scripts only from the site itself (the enhancement
 * script) and the theme boot by hash, no plugins, styles by hash, and no framing at all
 * (`frame-ancestors 'none'`, not 'self'): nothing of ours embeds a published page, and a page opened
 * with a visitor's cookie must not be shown inside someone else's site. `connect-src 'self'` is the
 * search endpoint. `frame-src https:` is for integration blocks' webframes, always sandboxed without
 * same-origin (shared/contentkit/render.ts); page markdown cannot write frames (it is sanitized).
 */
export function contentSecurityPolicy(fileOrigin: string, customStyleHash?: string): string {
  const styles = customStyleHash ? `${STYLE_HASH} ${customStyleHash}` : STYLE_HASH;
  return `default-src 'none'; script-src 'self' ${THEME_BOOT_HASH}; style-src ${styles}; img-src 'self' ${fileOrigin} https: data:; connect-src 'self'; frame-src https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/** A link of the header navigation (sections, variants). */
export interface NavLink {
  title: string;
  href: string;
  current: boolean;
}

/** Top navigation: sections (under their group label), the section's versions and languages (language-variants.ts). */
export interface PageFrame {
  siteTitle: string;
  homeHref: string;
  sectionTabs: { group?: string; links: NavLink[] }[];
  variants: NavLink[];
  /** The language switcher's entries (none when the section has one language). */
  languages: LanguageLink[];
  /** The language of the site space shown (its code: `<html lang>`, `dir`). */
  language: string;
  /** Where the site's assets are served (`<site>/~folio/`). */
  assets: string;
  scriptVersion: string;
  /** The site's customization (logo, favicon, header links, extra CSS). */
  look?: PublishedLook;
}

/** What a page shows: its title, description, HTML body and the page tree around it. */
export interface PageContent {
  title: string;
  description?: string;
  noindex: boolean;
  bodyHtml: string;
  /** The page tree of the current site space. */
  pages: readonly StoredPage[];
  currentPageId: string;
  pageHref(page: StoredPage): string;
  /** Level 2-3 headings of the body, for the table of contents. */
  headings: readonly { depth: number; id: string; text: string }[];
  /** Ancestors of the page (groups and pages), outermost first. */
  breadcrumbs: readonly { title: string; href?: string }[];
  previous?: { title: string; href: string };
  next?: { title: string; href: string };
  /** When the space's content was last published (ISO date). */
  updated?: Date;
  /** Canonical absolute URL of the page (also its Open Graph URL). */
  canonical?: string;
  /** The same page in the site's languages (`hreflang` alternates). */
  alternates?: readonly Alternate[];
}

const current = (on: boolean) => (on ? ' aria-current="page"' : '');
const link = (l: NavLink) => `<a href="${escapeHtml(l.href)}"${current(l.current)}>${escapeHtml(l.title)}</a>`;

/** External link pages: only web and mail URLs become links (no `javascript:` and friends). */
export function safeExternal(href: unknown): string {
  return typeof href === 'string' && /^(https?:|mailto:)/i.test(href.trim()) ? href.trim() : '#';
}

function pageTree(pages: readonly StoredPage[], c: Pick<PageContent, 'pageHref' | 'currentPageId'>): string {
  const items = pages
    .filter((p) => p.hidden !== true)
    .map((p) => {
      const title = escapeHtml(String(p.title ?? 'Untitled'));
      const children = p.pages?.length ? pageTree(p.pages, c) : '';
      if (p.type === 'group') return `<li><div class="group">${title}</div>${children}</li>`;
      if (p.type === 'link')
        return `<li><a href="${escapeHtml(safeExternal(p.href))}" rel="noopener">${title} ↗</a></li>`;
      return `<li><a href="${escapeHtml(c.pageHref(p))}"${current(p.id === c.currentPageId)}>${title}</a>${children}</li>`;
    });
  return items.length ? `<ul>${items.join('')}</ul>` : '';
}

interface HeadInfo {
  title: string;
  /** The page's language code ('en' when not given). */
  language?: string;
  alternates?: readonly Alternate[];
  noindex: boolean;
  description?: string;
  canonical?: string;
  siteTitle?: string;
  look?: PublishedLook;
}

/** Favicon links: a light/dark pair by color scheme, or an emoji drawn in an SVG data URL. */
function favicon(look: PublishedLook | undefined): string {
  const f = look?.favicon;
  if (!f) return '';
  if ('emoji' in f) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${escapeHtml(f.emoji)}</text></svg>`;
    return `<link rel="icon" href="data:image/svg+xml,${escapeHtml(encodeURIComponent(svg))}">`;
  }
  if (f.light === f.dark) return `<link rel="icon" href="${escapeHtml(f.light)}">`;
  return (
    `<link rel="icon" href="${escapeHtml(f.light)}" media="(prefers-color-scheme: light)">` +
    `<link rel="icon" href="${escapeHtml(f.dark)}" media="(prefers-color-scheme: dark)">`
  );
}

/** The site's default theme on <html> (a reader's own choice overrides it, unless the toggle is off). */
function themeAttributes(look: PublishedLook | undefined): string {
  if (!look) return '';
  return `${look.theme ? ` data-theme="${look.theme}"` : ''}${look.themeToggle ? '' : ' data-theme-fixed'}`;
}

function head(h: HeadInfo): string {
  const meta = (attr: string, name: string, content: string) =>
    `<meta ${attr}="${name}" content="${escapeHtml(content)}">`;
  return (
    `<!doctype html><html ${htmlLanguage(h.language ?? 'en')}${themeAttributes(h.look)}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(h.title)}</title>${h.description ? meta('name', 'description', h.description) : ''}` +
    `${h.noindex ? '<meta name="robots" content="noindex">' : ''}` +
    (h.canonical
      ? `<link rel="canonical" href="${escapeHtml(h.canonical)}">${meta('property', 'og:url', h.canonical)}`
      : '') +
    (h.siteTitle
      ? meta('property', 'og:type', 'article') +
        meta('property', 'og:title', h.title) +
        meta('property', 'og:site_name', h.siteTitle) +
        (h.description ? meta('property', 'og:description', h.description) : '') +
        meta('name', 'twitter:card', 'summary')
      : '') +
    alternateLinks(h.alternates ?? []) +
    `<meta name="color-scheme" content="${h.look?.theme && !h.look.themeToggle ? h.look.theme : 'light dark'}"><script>${THEME_BOOT}</script><style>${STYLE}</style>` +
    (h.look?.css ? `<style>${h.look.css}</style>` : '') +
    `${favicon(h.look)}</head>`
  );
}

/** The site's logo (one image per theme when they differ, named by the site title), else its title. */
function siteMark(frame: PageFrame): string {
  const logo = frame.look?.logo;
  const title = escapeHtml(frame.siteTitle);
  if (!logo) return title;
  const img = (src: string, cls: string) => `<img class="logo ${cls}" src="${escapeHtml(src)}" alt="${title}">`;
  return logo.light === logo.dark ? img(logo.light, '') : img(logo.light, 'logo-light') + img(logo.dark, 'logo-dark');
}

/** The customization's header links: plain links, buttons, and menus (a <details> works without scripts). */
function headerLinks(look: PublishedLook | undefined): string {
  if (!look?.headerLinks.length) return '';
  const items = look.headerLinks.map((l) => {
    const title = escapeHtml(l.title);
    const cls = l.style === 'link' ? '' : ` class="${l.style}"`;
    if (!l.links.length) return `<li><a${cls} href="${escapeHtml(l.href ?? '#')}">${title}</a></li>`;
    const sub = l.links.map((s) => `<li><a href="${escapeHtml(s.href)}">${escapeHtml(s.title)}</a></li>`).join('');
    const top = l.href ? `<li><a href="${escapeHtml(l.href)}">${title}</a></li>` : '';
    return `<li><details><summary>${title}</summary><ul>${top}${sub}</ul></details></li>`;
  });
  return `<nav class="hlinks" aria-label="Links" data-testid="header-links"><ul>${items.join('')}</ul></nav>`;
}

function header(frame: PageFrame): string {
  const tabs = frame.sectionTabs
    .map(
      (t) =>
        (t.group ? `<li><span class="group">${escapeHtml(t.group)}</span></li>` : '') +
        t.links.map((l) => `<li>${link(l)}</li>`).join(''),
    )
    .join('');
  return (
    `<a class="skip" href="#_content">Skip to content</a><header class="top"><div class="bar">` +
    `<a class="menu" href="#_nav" aria-label="Open navigation" aria-controls="_nav" aria-expanded="false" data-testid="site-menu">☰</a>` +
    `<a class="site" href="${escapeHtml(frame.homeHref)}">${siteMark(frame)}</a>` +
    (tabs ? `<nav class="sections" aria-label="Sections"><ul>${tabs}</ul></nav>` : '') +
    headerLinks(frame.look) +
    `<div class="tools">${languageSwitcher(frame.languages)}<button type="button" data-testid="search-open" aria-label="Search (press /)">${ICON.search}<span class="label">Search</span><kbd>/</kbd></button>` +
    (frame.look?.themeToggle === false
      ? ''
      : `<button type="button" data-testid="theme-toggle" aria-label="Switch theme">${ICON.moon}${ICON.sun}</button>`) +
    `</div>` +
    `</div></header>`
  );
}

function sidebar(frame: PageFrame, tree: string): string {
  const variants =
    frame.variants.length > 1
      ? `<nav class="variants" aria-label="Versions"><ul>${frame.variants.map((l) => `<li>${link(l)}</li>`).join('')}</ul></nav>`
      : '';
  return (
    `<aside class="sidebar" id="_nav"><a class="close" href="#" aria-label="Close navigation">×</a>` +
    `${variants}<nav aria-label="Pages">${tree}</nav></aside>`
  );
}

function tableOfContents(headings: PageContent['headings']): string {
  if (headings.length < 2) return '';
  const items = headings
    .map(
      (h) =>
        `<li class="lvl${h.depth === 3 ? 3 : 2}"><a href="#${escapeHtml(encodeURIComponent(h.id))}">${escapeHtml(h.text)}</a></li>`,
    )
    .join('');
  return `<nav class="toc" aria-labelledby="_toc"><h2 id="_toc">On this page</h2><ul>${items}</ul></nav>`;
}

function breadcrumbs(items: PageContent['breadcrumbs']): string {
  if (items.length === 0) return '';
  const li = items
    .map(
      (b) => `<li>${b.href ? `<a href="${escapeHtml(b.href)}">${escapeHtml(b.title)}</a>` : escapeHtml(b.title)}</li>`,
    )
    .join('');
  return `<nav class="crumbs" aria-label="Breadcrumb"><ol>${li}</ol></nav>`;
}

function pager(c: PageContent): string {
  if (!c.previous && !c.next) return '';
  const a = (cls: string, label: string, l: { title: string; href: string }) =>
    `<a class="${cls}" rel="${cls}" href="${escapeHtml(l.href)}"><small>${label}</small>${escapeHtml(l.title)}</a>`;
  return (
    `<nav class="pager" aria-label="Previous and next pages">` +
    `${c.previous ? a('prev', 'Previous', c.previous) : ''}${c.next ? a('next', 'Next', c.next) : ''}</nav>`
  );
}

/** Adds a visible anchor link to each heading that has an id (pure string work on the body HTML). */
function withHeadingAnchors(html: string): string {
  return html.replace(
    /<(h[2-4]) id="([^"]+)">([\s\S]*?)<\/\1>/g,
    (_, tag: string, id: string, inner: string) =>
      `<${tag} id="${id}">${inner}<a class="anchor" href="#${id}" aria-label="Link to this section">#</a></${tag}>`,
  );
}

const scripts = (frame: PageFrame) =>
  `<script src="${escapeHtml(frame.assets)}site.js?v=${frame.scriptVersion}" defer></script>`;

/** A full published page. */
export function renderPage(frame: PageFrame, c: PageContent): string {
  const updated = c.updated
    ? `<p class="updated">Last updated <time datetime="${c.updated.toISOString()}">${c.updated.toISOString().slice(0, 10)}</time></p>`
    : '';
  return (
    head({
      title: `${c.title} | ${frame.siteTitle}`,
      noindex: c.noindex,
      description: c.description,
      canonical: c.canonical,
      alternates: c.alternates,
      language: frame.language,
      siteTitle: frame.siteTitle,
      look: frame.look,
    }) +
    `<body data-search="${escapeHtml(frame.assets)}search">${header(frame)}<div class="layout">` +
    sidebar(frame, pageTree(c.pages, c)) +
    `<main id="_content">${breadcrumbs(c.breadcrumbs)}<article><h1 class="title">${escapeHtml(c.title)}</h1>` +
    `${c.description ? `<p class="description">${escapeHtml(c.description)}</p>` : ''}${withHeadingAnchors(c.bodyHtml)}</article>` +
    `${pager(c)}${updated}</main>${tableOfContents(c.headings)}</div>${scripts(frame)}</body></html>`
  );
}

/** The not-found page of a site: its header and page tree, so the reader can go on from there. */
export function renderNotFound(frame: PageFrame, c: Pick<PageContent, 'pages' | 'pageHref'>): string {
  return (
    head({ title: `Page not found | ${frame.siteTitle}`, noindex: true, look: frame.look, language: frame.language }) +
    `<body data-search="${escapeHtml(frame.assets)}search">${header(frame)}<div class="layout">` +
    sidebar(frame, pageTree(c.pages, { ...c, currentPageId: '' })) +
    `<main id="_content"><article><h1 class="title">Page not found</h1>` +
    `<p class="description">There is no page at this address. It may have moved: pick a page from the navigation, ` +
    `search the site, or go back to the <a href="${escapeHtml(frame.homeHref)}">home page</a>.</p></article></main></div>` +
    `${scripts(frame)}</body></html>`
  );
}

/** A refusal or not-found page (same look, no site content). */
export function renderMessage(title: string, message: string): string {
  return `${head({ title, noindex: true })}<body><div class="refusal"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></div></body></html>`;
}
