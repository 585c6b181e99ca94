import { createLinkTargets, resolveLink } from '../../../shared/markdown/links';
import type { ContentDoc } from '../../../shared/doc';
import { INLINE_LINK, outsideCode } from '../../../shared/markdown/outside-code';

/**
 * Link resolution of markdown sent to updateChangeRequestContent: every
 * internal link becomes Folio's canonical `/pages/<id>` or `/files/<id>`
 * (so later renames and moves never break it), batch `ref`s resolve to the
 * ids they were given, external URLs stay, and a link that names nothing in
 * the change request is left as its plain text (GitBook's rule: never fail
 * the batch over a link).
 */

/** Batch-local names: page refs (`./<ref>.md`) and file refs (`./<ref>`). */
export interface BatchRefs {
  pages: Map<string, string>;
  files: Map<string, string>;
}

/** Each page's slug path (parent chain), from stored parents; cycle-safe. */
export function pagePaths(content: ContentDoc): Map<string, string> {
  const pages = new Map(content.listPageIds().map((id) => [id, content.getPage(id)!]));
  const paths = new Map<string, string>();
  const pathOf = (id: string, seen: Set<string>): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const page = pages.get(id)!;
    const parent = page.parent && pages.has(page.parent) && !seen.has(page.parent) ? page.parent : null;
    const path = parent ? `${pathOf(parent, new Set([...seen, id]))}/${page.slug}` : page.slug;
    paths.set(id, path);
    return path;
  };
  for (const id of pages.keys()) pathOf(id, new Set([id]));
  return paths;
}

function refTarget(href: string, refs: BatchRefs): string | undefined {
  const bare = href.replace(/^\.\//, '');
  const [path, anchor] = bare.split('#', 2) as [string, string | undefined];
  const file = refs.files.get(path);
  if (file) return `/files/${file}`;
  const page = refs.pages.get(path.replace(/\.md$/, ''));
  if (page) return anchor ? `/pages/${page}#${anchor}` : `/pages/${page}`;
  return undefined;
}

/** Rewrites the links of `markdown` written in the page `pageId` (see the file comment). */
export function resolveBatchLinks(markdown: string, pageId: string, content: ContentDoc, refs: BatchRefs): string {
  if (!markdown.includes('](')) return markdown;
  const paths = pagePaths(content);
  const children = new Set<string>();
  for (const id of paths.keys()) {
    const parent = content.getPage(id)?.parent;
    if (parent) children.add(parent);
  }
  const targets = createLinkTargets(
    [...paths].map(([id, path]) => ({ id, path, hasChildren: children.has(id) })),
    content.listFiles().map((f) => ({ id: f.id, name: f.name })),
  );
  const fromPath = paths.get(pageId) ?? '';
  const rewrite = (prose: string) =>
    prose.replace(INLINE_LINK, (whole, bang: string, text: string, rawHref: string, title: string) => {
      const href = rawHref.startsWith('<') ? rawHref.slice(1, -1) : rawHref;
      const byRef = refTarget(href, refs);
      if (byRef) return `${bang}[${text}](${byRef}${title})`;
      const resolved = resolveLink(fromPath, href, targets);
      switch (resolved.kind) {
        case 'url':
        case 'anchor':
          return whole;
        case 'page':
          return `${bang}[${text}](/pages/${resolved.page}${resolved.anchor ? `#${resolved.anchor}` : ''}${title})`;
        case 'file':
          return `${bang}[${text}](/files/${resolved.file}${title})`;
        case 'broken':
          return text;
      }
    });
  return outsideCode(markdown, rewrite);
}
