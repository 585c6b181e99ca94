import type { StoredPage } from '../docs/revision-store';

/**
 * What a page shows around its body, derived from the page tree: breadcrumbs
 * (its ancestors) and the previous / next pages in reading order (the page
 * tree depth-first, document pages only, hidden ones skipped); and the body
 * without a first heading that only repeats the page title.
 */

/** Breadcrumbs and neighbours of page `id` in `pages`. */
export function pageNeighbours(
  pages: readonly StoredPage[],
  id: string,
  href: (p: StoredPage) => string,
): {
  breadcrumbs: { title: string; href?: string }[];
  previous?: { title: string; href: string };
  next?: { title: string; href: string };
} {
  const order: StoredPage[] = [];
  let trail: StoredPage[] = [];
  const walk = (list: readonly StoredPage[], ancestors: StoredPage[]) => {
    for (const p of list) {
      if (p.hidden === true) continue;
      if (p.type === 'document') order.push(p);
      if (p.id === id) trail = ancestors;
      walk(p.pages ?? [], [...ancestors, p]);
    }
  };
  walk(pages, []);
  const at = order.findIndex((p) => p.id === id);
  const linkOf = (p: StoredPage | undefined) =>
    p ? { title: String(p.title ?? 'Untitled'), href: href(p) } : undefined;
  return {
    breadcrumbs: trail.map((p) => ({
      title: String(p.title ?? 'Untitled'),
      ...(p.type === 'document' ? { href: href(p) } : {}),
    })),
    ...(at > 0 ? { previous: linkOf(order[at - 1]) } : {}),
    ...(at >= 0 && at < order.length - 1 ? { next: linkOf(order[at + 1]) } : {}),
  };
}

const LEADING_H1 = /^\s*<h1 id="[^"]*">([^<]*)<\/h1>\n?/;

const decode = (html: string) =>
  html.replace(/&#x([0-9a-f]+);|&#(\d+);|&(amp|lt|gt|quot);/gi, (_, hex?: string, dec?: string, named?: string) =>
    hex
      ? String.fromCodePoint(parseInt(hex, 16))
      : dec
        ? String.fromCodePoint(Number(dec))
        : ({ amp: '&', lt: '<', gt: '>', quot: '"' }[named!.toLowerCase()] ?? ''),
  );

const normalize = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

/** The body without its first H1 when that heading is the page title again (as imported pages often start). */
export function dropRepeatedTitle(bodyHtml: string, title: string): string {
  const m = LEADING_H1.exec(bodyHtml);
  if (!m || normalize(decode(m[1]!)) !== normalize(title)) return bodyHtml;
  return bodyHtml.slice(m[0].length);
}
