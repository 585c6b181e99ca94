import { fromMarkdown } from 'mdast-util-from-markdown';
import type { List, ListItem, Node, Parent, Paragraph } from 'mdast';
import { peelBom, splitLines, type Line } from './lines';
import { decodeHref } from './paths';

/**
 * SUMMARY.md, GitBook's table of contents, read as entries that remember their lines: `## Heading`
 * starts a group (up to the next heading; a group lives at the root), a list item's link
 * (`* [Title](path.md)`) is a page, nested items are child pages, an item linking to a URL is a
 * link page. The importer's sync-server/import/summary.ts reads the same grammar into a tree; this
 * one also keeps where each entry is written, so the writer can change one entry's line and leave
 * every other line of the file as it was.
 */

export interface SummaryEntry {
  kind: 'group' | 'page';
  /** Link text or heading text (HTML such as GitBook's `<a id>` anchors left out). */
  title: string;
  /** The link's href as written (pages). */
  href?: string;
  /** The href's path, decoded and without anchor, relative to SUMMARY.md (pages linking to a file). */
  path?: string;
  /** The href when it is a URL (a link page). */
  url?: string;
  /** Index of the entry it is listed under (a page, or the group). */
  parent?: number;
  /** Its own lines (0-based, inclusive): a heading, or a list item up to the end of its link's paragraph. */
  first: number;
  last: number;
}

export interface ParsedSummary {
  bom: string;
  lines: Line[];
  entries: SummaryEntry[];
}

const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function textOf(node: Node): string {
  if (node.type === 'html') return '';
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node as Parent).children.map(textOf).join('');
  return '';
}

export function parseSummaryFile(text: string): ParsedSummary {
  const { bom, rest } = peelBom(text);
  const entries: SummaryEntry[] = [];
  const line = (node: Node, end = false) => (end ? node.position!.end.line : node.position!.start.line) - 1;
  const walkList = (list: List, parent: number | undefined) => {
    for (const item of list.children as ListItem[]) {
      let self = parent;
      for (const child of item.children) {
        if (child.type === 'paragraph' && self === parent) {
          const link = (child as Paragraph).children.find((c) => c.type === 'link');
          if (link && link.type === 'link') {
            const href = link.url;
            const url = URL_SCHEME.test(href) || href.startsWith('//');
            entries.push({
              kind: 'page',
              title: textOf(link).trim() || 'Untitled',
              href,
              ...(url ? { url: href } : { path: decodeHref(href.split('#')[0]!.split('?')[0]!) }),
              ...(parent !== undefined ? { parent } : {}),
              first: line(item),
              last: line(child, true),
            });
            self = entries.length - 1;
          }
        } else if (child.type === 'list') walkList(child, self);
      }
    }
  };
  let group: number | undefined;
  for (const node of fromMarkdown(rest).children) {
    if (node.type === 'list') walkList(node, group);
    else if (node.type === 'heading' && node.depth >= 2) {
      // A heading without text names nothing: its pages stay with the group before it (or the root).
      const title = textOf(node).trim();
      if (!title) continue;
      entries.push({ kind: 'group', title, first: line(node), last: line(node, true) });
      group = entries.length - 1;
    }
  }
  return { bom, lines: splitLines(rest), entries };
}
