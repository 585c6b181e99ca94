import type * as Y from 'yjs';
import { readOutline } from '../../../../shared/doc/outline';
import { resolveTree } from '../../../../shared/doc/tree';
import type { LinkablePage } from './page-link-completion';

/**
 * The pages a `[[` link may point to, in tree order, each with its
 * ancestors' titles (to tell two "Overview" pages apart). Read from the
 * outline only (no page bodies), when the completion opens.
 */
export function linkablePages(doc: Y.Doc): LinkablePage[] {
  const outline = readOutline(doc);
  const tree = resolveTree(outline);
  const out: LinkablePage[] = [];
  const walk = (ids: readonly string[], path: string[]) => {
    for (const id of ids) {
      const entry = outline.get(id);
      if (!entry) continue;
      // Groups have no content of their own and link pages point outside the space.
      if (entry.kind === 'document') {
        const page: LinkablePage = { id, title: entry.title };
        if (entry.emoji) page.emoji = entry.emoji;
        if (path.length) page.path = path.join(' / ');
        out.push(page);
      }
      walk(tree.children.get(id) ?? [], [...path, entry.title]);
    }
  };
  walk(tree.roots, []);
  return out;
}
