import { fromMarkdown } from 'mdast-util-from-markdown';
import type { List, ListItem, Node, Parent } from 'mdast';

/**
 * GitBook's SUMMARY.md, the table of contents of its export and Git sync layout: nested lists of
 * links to the pages' files (`* [Title](path/page.md)`); `## Heading` lines start groups, whose
 * pages are read in order like the others. Answers the entries in order, each with its parent's
 * index (a nested list item is a child page).
 */

export interface SummaryEntry {
  title: string;
  /** The linked file's path, decoded, relative to SUMMARY.md. */
  path: string;
  parent?: number;
}

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
  for (const node of fromMarkdown(markdown).children) if (node.type === 'list') walkList(node, undefined);
  return entries;
}
