import type { StoredPage } from '../../docs/revision-store';
import { markdownToDocument } from '../../../shared/markdown/document';

export type PageFormatName = 'markdown' | 'document';

/**
 * The body fields of a page in the requested format: `markdown` (Folio's
 * native form, and the default) or GitBook's structured `document`. Group and
 * link pages have no body.
 */
export function pageFields(page: StoredPage, format: PageFormatName): object {
  if (format !== 'document' || typeof page.markdown !== 'string') return {};
  return { markdown: undefined, document: markdownToDocument(page.markdown) };
}
