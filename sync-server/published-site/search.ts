import MiniSearch from 'minisearch';
import type { MarkdownService } from '../markdown/service';
import type { SitePage } from './site-pages';

/**
 * Full-text search over what one visitor may read of a site (sitePages: the
 * visible sections and site spaces, pages not hidden). One document per
 * section of a page (heading and the text up to the next one), so a result
 * links to `page#anchor`, the heading id the page renders. Indexes are built
 * per (site state, audience) and cached by the caller; the markdown is
 * analyzed in the parse pool (cached by text).
 */

interface SectionDoc {
  id: number;
  pageTitle: string;
  heading: string;
  body: string;
  url: string;
  where: string;
}

/** One search result, as the site script shows it. */
export interface SearchResult {
  title: string;
  /** The page (and where it sits) when the result is a section of it. */
  path: string;
  url: string;
  snippet: string;
}

/** A built index: answers queries synchronously. */
export interface SiteSearch {
  search(query: string, limit?: number): SearchResult[];
}

/** Liquid tags (`{% hint %}`) and HTML tags are markup, not words to find. */
const words = (text: string) => text.replace(/\{%[^%]*%\}/g, ' ').replace(/<[^>]+>/g, ' ');

/** Builds the index of `pages`; `href(path)` makes a page's URL from its path from the site root. */
export async function buildSiteSearch(
  pages: readonly SitePage[],
  markdown: MarkdownService,
  href: (path: string) => string,
): Promise<SiteSearch> {
  const docs: SectionDoc[] = [];
  for (const p of pages) {
    const analysis = await markdown.analysis(p.markdown);
    const where = [...p.where, p.title].join(' › ');
    const url = href(p.path);
    let first = true;
    for (const s of analysis.sections) {
      // The page's own leading H1 repeats its title: it is the page result, not a section.
      const isTitle = s.level === 0 || (first && s.level === 1);
      first = false;
      docs.push({
        id: docs.length,
        pageTitle: p.title,
        heading: isTitle ? '' : s.title,
        body: words(isTitle && p.description ? `${p.description}\n${s.body}` : s.body),
        url: isTitle ? url : `${url}#${encodeURIComponent(s.id)}`,
        where,
      });
    }
    if (analysis.sections.length === 0)
      docs.push({ id: docs.length, pageTitle: p.title, heading: '', body: p.description ?? '', url, where });
  }
  const index = new MiniSearch<SectionDoc>({
    fields: ['pageTitle', 'heading', 'body'],
    storeFields: [],
    searchOptions: { boost: { pageTitle: 3, heading: 2 }, prefix: true, fuzzy: 0.15, combineWith: 'AND' },
  });
  index.addAll(docs);
  return {
    search(query, limit = 12) {
      const q = query.trim().slice(0, 200);
      if (q === '') return [];
      return index
        .search(q)
        .slice(0, limit)
        .map((hit) => {
          const d = docs[hit.id as number]!;
          return {
            title: d.heading || d.pageTitle,
            path: d.heading ? d.where : d.where.split(' › ').slice(0, -1).join(' › '),
            url: d.url,
            snippet: snippet(d.body, hit.terms),
          };
        });
    },
  };
}

/** About 160 characters of `body` around the first of `terms` found in it. */
export function snippet(body: string, terms: readonly string[], width = 160): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  let at = -1;
  for (const t of terms) {
    const i = lower.indexOf(t.toLowerCase());
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  if (at < 0) return flat.slice(0, width) + (flat.length > width ? '…' : '');
  const start = Math.max(0, at - Math.floor(width / 3));
  const end = Math.min(flat.length, start + width);
  return (start > 0 ? '…' : '') + flat.slice(start, end) + (end < flat.length ? '…' : '');
}
