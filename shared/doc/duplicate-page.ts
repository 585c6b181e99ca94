import type { ContentDoc, CreatePageInput } from './content-doc';
import { readOutline } from './outline';
import { ContentDocError } from './page-ops';
import { resolveTree } from './tree';

/**
 * "Duplicate" of the page actions menu: a copy of the page — body, emoji,
 * description, visibility, layout — and of its sub-pages, with new ids,
 * placed right after the original. Only the top copy's title gets
 * " (copy)"; its slug follows that title, so the copy never takes the
 * original's path. One transaction: collaborators see the whole copy appear
 * at once, and offline it syncs as one update.
 */

/** Suffix of the duplicated page's title. */
export const COPY_SUFFIX = ' (copy)';

/**
 * Duplicates `id` and its sub-pages; returns the id of the top copy.
 * @throws ContentDocError unknown page.
 */
export function duplicatePage(content: ContentDoc, id: string, origin: unknown = null): string {
  const doc = content.ydoc;
  let copyId = '';
  doc.transact(() => {
    const tree = resolveTree(readOutline(doc));
    const copy = (sourceId: string, input: Partial<CreatePageInput>): string => {
      const source = content.getPage(sourceId);
      if (!source) return '';
      const created = content.createPage({
        title: source.title,
        kind: source.kind,
        slug: source.slug,
        markdown: source.markdown,
        hidden: source.hidden,
        noIndex: source.noIndex,
        layout: source.layout,
        ...(source.emoji ? { emoji: source.emoji } : {}),
        ...(source.icon ? { icon: source.icon } : {}),
        ...(source.description ? { description: source.description } : {}),
        ...(source.href ? { href: source.href } : {}),
        ...input,
      });
      for (const child of tree.children.get(sourceId) ?? []) copy(child, { parent: created });
      return created;
    };
    const original = content.getPage(id);
    if (!original) throw new ContentDocError('not-found', `page "${id}" does not exist`);
    const parent = tree.parentOf.get(id) ?? null;
    // `after` needs a stored sibling; when the stored parent differs from the shown one (a concurrent-edit leftover), append.
    const place = original.parent === parent ? { after: id } : {};
    copyId = copy(id, { title: `${original.title}${COPY_SUFFIX}`, slug: undefined, parent, ...place });
  }, origin);
  return copyId;
}
