import type { StoredPage } from '../../docs/revision-store';
import type { MarkdownService } from '../../markdown/service';

export type PageFormatName = 'markdown' | 'document';

/**
 * The body fields of a page and of every page under it (RevisionPage nests its
 * children) in the requested format: `markdown` (Folio's native form, and the
 * default) or GitBook's structured `document`. Group and link pages have no
 * body. Documents come from the markdown service (parse pool, cached per
 * text): a page too complex to format is a code block with
 * `document.data.degraded`. Resolves to the lookup presentPage applies.
 */
export async function pageFields(
  markdown: MarkdownService,
  page: StoredPage,
  format: PageFormatName,
): Promise<(p: StoredPage) => object> {
  if (format !== 'document') return () => ({});
  const bodies: StoredPage[] = [];
  const walk = (p: StoredPage) => {
    if (typeof p.markdown === 'string') bodies.push(p);
    for (const child of p.pages ?? []) walk(child);
  };
  walk(page);
  const documents = await Promise.all(bodies.map((p) => markdown.document(p.markdown as string)));
  const fields = new Map(bodies.map((p, i) => [p, { markdown: undefined, document: documents[i] }]));
  return (p) => fields.get(p) ?? {};
}
