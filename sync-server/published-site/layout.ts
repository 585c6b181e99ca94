import { createHash } from 'node:crypto';
import type { StoredPage } from '../docs/revision-store';
import { escapeHtml } from './markdown';

/**
 * The HTML shell of published pages: header with the site title and section
 * tabs, a variant switcher between site spaces, the page tree, and the page.
 * No scripts at all; the one inline stylesheet is allowed by its hash in a
 * strict Content-Security-Policy.
 */

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
a{color:#346ddb}header{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:center;padding:.8rem 1.5rem;border-bottom:1px solid #e5e7eb}
header .site{font-weight:700;font-size:1.15rem;color:inherit;text-decoration:none}
nav.sections ul,nav.variants ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0;flex-wrap:wrap}
nav.sections a,nav.variants a{text-decoration:none;color:#57606a;padding:.2rem 0}
nav.sections [aria-current],nav.variants [aria-current]{color:#1f2328;border-bottom:2px solid #346ddb}
nav.sections .group{color:#57606a;font-size:.85rem;text-transform:uppercase;letter-spacing:.04em}
.layout{display:flex;max-width:72rem;margin:0 auto}aside{width:16rem;flex:none;padding:1.5rem 1rem;border-right:1px solid #e5e7eb}
aside ul{list-style:none;margin:0;padding-left:.8rem}aside>ul{padding-left:0}aside a{display:block;padding:.15rem .4rem;border-radius:.3rem;text-decoration:none;color:#424a53}
aside a[aria-current]{background:#eef3fc;color:#1f4fb2;font-weight:600}aside .group{font-weight:600;font-size:.8rem;text-transform:uppercase;color:#6e7781;margin:.8rem 0 .2rem}
main{flex:1;min-width:0;padding:1.5rem 2.5rem 4rem}main h1.title{margin-top:0}p.description{color:#57606a;font-size:1.1rem;margin-top:-.5rem}
pre{background:#f6f8fa;padding:1rem;overflow:auto;border-radius:.4rem}code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.3rem .6rem}img{max-width:100%}blockquote{margin:0;padding-left:1rem;border-left:4px solid #d0d7de;color:#57606a}
.refusal{max-width:36rem;margin:6rem auto;text-align:center}
`;

/** CSP hash of the inline stylesheet. */
export const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/**
 * The Content-Security-Policy of published pages: no scripts, no plugins, styles by hash, and no framing
 * at all (`frame-ancestors 'none'`, not 'self'): nothing of ours embeds a published page, and a page
 * opened with a visitor's cookie must not be shown inside someone else's site.
 */
export function contentSecurityPolicy(fileOrigin: string): string {
  return `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self' ${fileOrigin} https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
}

/** A link of the header navigation (sections, variants). */
export interface NavLink {
  title: string;
  href: string;
  current: boolean;
}

/** Top navigation: sections (optionally under a group label), and the current section's site spaces. */
export interface PageFrame {
  siteTitle: string;
  homeHref: string;
  sectionTabs: { group?: string; links: NavLink[] }[];
  variants: NavLink[];
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
}

const current = (on: boolean) => (on ? ' aria-current="page"' : '');
const link = (l: NavLink) => `<a href="${escapeHtml(l.href)}"${current(l.current)}>${escapeHtml(l.title)}</a>`;

/** External link pages: only web and mail URLs become links (no `javascript:` and friends). */
function safeExternal(href: unknown): string {
  return typeof href === 'string' && /^(https?:|mailto:)/i.test(href.trim()) ? href.trim() : '#';
}

function pageTree(pages: readonly StoredPage[], c: PageContent): string {
  const items = pages
    .filter((p) => p.hidden !== true)
    .map((p) => {
      const title = escapeHtml(String(p.title ?? 'Untitled'));
      const children = p.pages?.length ? pageTree(p.pages, c) : '';
      if (p.type === 'group') return `<li><div class="group">${title}</div>${children}</li>`;
      if (p.type === 'link')
        return `<li><a href="${escapeHtml(safeExternal(p.href))}" rel="noopener">${title}</a></li>`;
      return `<li><a href="${escapeHtml(c.pageHref(p))}"${current(p.id === c.currentPageId)}>${title}</a>${children}</li>`;
    });
  return items.length ? `<ul>${items.join('')}</ul>` : '';
}

function head(title: string, noindex: boolean, description?: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title>${description ? `<meta name="description" content="${escapeHtml(description)}">` : ''}` +
    `${noindex ? '<meta name="robots" content="noindex">' : ''}<style>${STYLE}</style></head>`
  );
}

/** A full published page. */
export function renderPage(frame: PageFrame, c: PageContent): string {
  const tabs = frame.sectionTabs
    .map(
      (t) =>
        (t.group ? `<li><span class="group">${escapeHtml(t.group)}</span></li>` : '') +
        t.links.map((l) => `<li>${link(l)}</li>`).join(''),
    )
    .join('');
  const variants =
    frame.variants.length > 1
      ? `<nav class="variants" aria-label="Versions"><ul>${frame.variants.map((l) => `<li>${link(l)}</li>`).join('')}</ul></nav>`
      : '';
  return (
    head(`${c.title} | ${frame.siteTitle}`, c.noindex, c.description) +
    `<body><header><a class="site" href="${escapeHtml(frame.homeHref)}">${escapeHtml(frame.siteTitle)}</a>` +
    (tabs ? `<nav class="sections" aria-label="Sections"><ul>${tabs}</ul></nav>` : '') +
    `${variants}</header><div class="layout"><aside><nav aria-label="Pages">${pageTree(c.pages, c)}</nav></aside>` +
    `<main><article><h1 class="title">${escapeHtml(c.title)}</h1>` +
    `${c.description ? `<p class="description">${escapeHtml(c.description)}</p>` : ''}${c.bodyHtml}</article></main></div></body></html>`
  );
}

/** A refusal or not-found page (same look, no site content). */
export function renderMessage(title: string, message: string): string {
  return `${head(title, true)}<body><div class="refusal"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></div></body></html>`;
}
