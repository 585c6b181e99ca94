import { fromMarkdown } from 'mdast-util-from-markdown';
import type { List, ListItem, Node, Parent } from 'mdast';

/**
 * GitBook's SUMMARY.md, the table of contents of its export and Git sync layout: nested lists of
 * links to the pages' files (`* [Title](path/page.md)`), and `## Heading` lines that start page
 * groups (GitBook's page type 'group'): the pages listed below a heading, up to the next one, go
 * into its group. A group lives only at the root (GitBook allows no other place), so a heading
 * always starts a root group, and the pages before the first heading stay at the root. The `#`
 * heading is the file's own title ("Table of contents"), not a group. Answers the entries in
 * order, each with its parent's index (a nested list item is a child page).
 */

export type SummaryEntry =
  | {
      kind: 'page';
      title: string;
      /** The linked file's path, decoded, relative to SUMMARY.md. */
      path: string;
      /** Index of the parent entry (a page, or the group the page is listed under). */
      parent?: number;
    }
  | { kind: 'group'; title: string };

function textOf(node: Node): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node as Parent).children.map(textOf).join('');
  return '';
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function parseSummary(markdown: string): SummaryEntry[] {
  const entries: SummaryEntry[] = [];
  const walkList = (list: List, parent: number | undefined) => {
    for (const item of list.children as ListItem[]) {
      let self = parent;
      for (const child of item.children) {
        if (child.type === 'paragraph') {
          const link = child.children.find((c) => c.type === 'link');
          if (link && link.type === 'link' && !/^[a-z][a-z0-9+.-]*:/i.test(link.url)) {
            entries.push({
              kind: 'page',
              title: textOf(link).trim() || 'Untitled',
              path: decode(link.url.split('#')[0]!.replace(/^\.\//, '')),
              ...(parent !== undefined ? { parent } : {}),
            });
            self = entries.length - 1;
          }
        } else if (child.type === 'list') walkList(child, self);
      }
    }
  };
  let group: number | undefined;
  for (const node of fromMarkdown(markdown).children) {
    if (node.type === 'list') walkList(node, group);
    else if (node.type === 'heading' && node.depth >= 2) {
      // A heading without text names nothing: its pages join the group before it (or the root).
      const title = textOf(node).trim();
      if (!title) continue;
      entries.push({ kind: 'group', title: title.slice(0, 256) });
      group = entries.length - 1;
    }
  }
  return entries;
}
