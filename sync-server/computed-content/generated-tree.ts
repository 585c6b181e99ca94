import { presentPage } from '../../shared/doc/present';
import type { PageData } from '../../shared/doc/types';
import type { StoredPage } from '../docs/revision-store';
import type { GeneratedPage } from './openapi-pages';

/** What generated pages take from the computed page they stand under (its dates, whether it is hidden). */
export type Inherited = Partial<Pick<PageData, 'createdAt' | 'updatedAt' | 'hidden'>>;

/**
 * Generated pages as materialized document pages (the shape revisions hold), with their paths under
 * `parentPath` ('' at the root): one construction for a revision's expansion and for
 * getComputedRevision.
 */
export function generatedTree(page: GeneratedPage, parentPath: string, inherited: Inherited = {}): StoredPage {
  const path = parentPath ? `${parentPath}/${page.slug}` : page.slug;
  const children = page.pages.map((c) => generatedTree(c, path, inherited));
  const data: PageData = {
    id: page.id,
    kind: 'document',
    title: page.title,
    slug: page.slug,
    parent: null,
    index: '',
    hidden: inherited.hidden ?? false,
    noIndex: false,
    layout: {},
    markdown: page.markdown,
    ...(page.description ? { description: page.description } : {}),
    ...(inherited.createdAt ? { createdAt: inherited.createdAt } : {}),
    ...(inherited.updatedAt ? { updatedAt: inherited.updatedAt } : {}),
  };
  return presentPage(data, page.slug, path, children as never) as unknown as StoredPage;
}
