import type { SiteRow } from '../store/sites';
import type { SitePage } from './site-pages';

/**
 * The machine-readable side of a published site, as GitBook publishes it:
 * robots.txt, sitemap.xml, llms.txt (an index of the pages in markdown),
 * llms-full.txt (every page's markdown) and each page's markdown at
 * `<page URL>.md`. All of it is made from sitePages, so it lists only what
 * the visitor asking may read.
 */

/** Whether search engines may index the site: public sites only (unlisted and restricted ones never). */
export const indexable = (site: SiteRow) => site.visibility === 'public';

/** robots.txt: crawl a public site (and find its sitemap); keep crawlers out of any other. */
export function robotsTxt(site: SiteRow, absoluteBase: string): string {
  if (!indexable(site)) return 'User-agent: *\nDisallow: /\n';
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteBase}sitemap.xml\n`;
}

const xml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * sitemap.xml of the pages (noIndex pages left out), with each page's other languages as
 * `<xhtml:link rel="alternate" hreflang>` when `alternates` names them (sitemap-languages.ts).
 */
export function sitemapXml(
  pages: readonly SitePage[],
  absoluteBase: string,
  alternates: ReadonlyMap<SitePage, readonly { hreflang: string; href: string }[]> = new Map(),
): string {
  const links = (p: SitePage) =>
    (alternates.get(p) ?? [])
      .map((a) => `<xhtml:link rel="alternate" hreflang="${xml(a.hreflang)}" href="${xml(a.href)}"/>`)
      .join('');
  const urls = pages
    .filter((p) => p.page.noIndex !== true)
    .map(
      (p) =>
        `<url><loc>${xml(absoluteBase + p.path)}</loc><lastmod>${p.updated.toISOString().slice(0, 10)}</lastmod>${links(p)}</url>`,
    )
    .join('\n');
  const xhtml = alternates.size > 0 ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${xhtml}>\n${urls}\n</urlset>\n`;
}

/** A page's markdown URL: the page URL plus `.md` (the site root's first page is `index.md`). */
export function markdownPath(path: string): string {
  return path === '' || path.endsWith('/') ? `${path}index.md` : `${path}.md`;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** llms.txt: the site title, its context for agents, then a markdown link per page, grouped by where it sits. */
export function llmsTxt(site: SiteRow, pages: readonly SitePage[], absoluteBase: string): string {
  const lines = [`# ${oneLine(site.title)}`, ''];
  if (site.agents_context.trim()) lines.push(`> ${oneLine(site.agents_context)}`, '');
  let group: string | undefined;
  for (const p of pages) {
    const where = p.where.join(' › ');
    if (where !== group) {
      if (where) lines.push('', `## ${where}`, '');
      group = where;
    }
    const description = p.description ? `: ${oneLine(p.description)}` : '';
    lines.push(
      `- [${oneLine(p.title).replace(/[[\]]/g, '\\$&')}](${absoluteBase}${markdownPath(p.path)})${description}`,
    );
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n') + '\n';
}

/** A page as markdown: its title (the body's own `# Title` when it starts with it) and description, then its body. */
export function pageMarkdown(p: Pick<SitePage, 'title' | 'description' | 'markdown'>): string {
  let body = p.markdown.replace(/^\s+/, '');
  const heading = /^#\s+(.*)(?:\n|$)/.exec(body);
  if (heading?.[1]?.trim() === p.title.trim()) body = body.slice(heading[0].length).replace(/^\s+/, '');
  return `# ${p.title}\n\n${p.description ? `${p.description}\n\n` : ''}${body}`;
}

/** llms-full.txt: every page's markdown, with its URL. */
export function llmsFullTxt(pages: readonly SitePage[], absoluteBase: string): string {
  return pages.map((p) => `${pageMarkdown(p).trimEnd()}\n\nSource: ${absoluteBase}${p.path}\n`).join('\n---\n\n');
}
