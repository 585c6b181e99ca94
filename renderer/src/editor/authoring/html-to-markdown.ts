import TurndownService from 'turndown';

/**
 * Pasted HTML (from a web page, Google Docs, Word...) to markdown, with
 * turndown plus the GitHub-flavoured parts it lacks (tables,
 * strikethrough, task list boxes). Only the markdown reaches the page, and
 * everything executable or invisible is dropped first: scripts, styles,
 * frames, forms; links keep only web and mail URLs, images only web URLs
 * (a pasted `data:` image would be megabytes of text in the page).
 */

/** Tags whose content is never text of the page. */
const DROPPED = [
  'script',
  'style',
  'noscript',
  'iframe',
  'object',
  'embed',
  'template',
  'head',
  'meta',
  'link',
  'title',
  'form',
  'button',
  'select',
  'textarea',
  'svg',
  'canvas',
] as const;

/** Tags that make HTML worth converting; without any, the plain text of the clipboard is the better paste. */
const STRUCTURE = /<(p|h[1-6]|ul|ol|li|table|a|strong|b|em|i|pre|code|blockquote|img|del|s|strike|hr|br)[\s>/]/i;

const SAFE_LINK = /^(https?:|mailto:|\/|#|\.\.?\/)/i;
const SAFE_IMAGE = /^(https?:|\/)/i;

/** Whether `html` has structure (headings, lists, links, emphasis...) a markdown conversion keeps. */
export function worthConverting(html: string): boolean {
  return STRUCTURE.test(html);
}

let service: TurndownService | undefined;

function cellText(content: string): string {
  return content.replace(/\n+/g, ' ').replace(/\|/g, '\\|').trim();
}

function cellsOf(row: Node): number {
  return Array.from(row.childNodes).filter((n) => n.nodeName === 'TH' || n.nodeName === 'TD').length;
}

function isHeadingRow(row: Node): boolean {
  const parent = row.parentNode;
  if (parent?.nodeName === 'THEAD') return true;
  // The table's first row: GFM tables need a header row, so it is one.
  const table = parent?.nodeName === 'TABLE' ? parent : parent?.parentNode;
  if (!table || table.nodeName !== 'TABLE') return false;
  for (const section of Array.from(table.childNodes)) {
    if (section.nodeName === 'TR') return section === row;
    const first = Array.from(section.childNodes).find((n) => n.nodeName === 'TR');
    if (first) return first === row;
  }
  return false;
}

function build(): TurndownService {
  const td = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '_',
    strongDelimiter: '**',
    linkStyle: 'inlined',
  });
  td.remove([...DROPPED] as (keyof HTMLElementTagNameMap)[]);
  // "- item" and "1. item" (turndown pads markers to four columns), nested content indented to match.
  td.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const parent = node.parentNode as HTMLElement | null;
      let prefix = '- ';
      if (parent?.nodeName === 'OL') {
        const items = Array.from(parent.childNodes).filter((n) => n.nodeName === 'LI');
        const start = Number(parent.getAttribute('start') ?? '1') || 1;
        prefix = `${start + items.indexOf(node as ChildNode)}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/^\[([ x])\]\s+/, '[$1] ')
        .replace(/\n+$/, '\n')
        .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`);
      return prefix + body + (node.nextSibling && !/\n$/.test(body) ? '\n' : '');
    },
  });
  td.addRule('strikethrough', {
    filter: ['del', 's', 'strike' as keyof HTMLElementTagNameMap],
    replacement: (content) => (content.trim() ? `~~${content}~~` : ''),
  });
  // Google Docs wraps a whole paste in <b style="font-weight:normal">: not bold.
  td.addRule('notBold', {
    filter: (node) => node.nodeName === 'B' && /font-weight:\s*(normal|400)/.test(node.getAttribute('style') ?? ''),
    replacement: (content) => content,
  });
  td.addRule('taskBox', {
    filter: (node) => node.nodeName === 'INPUT' && node.getAttribute('type') === 'checkbox',
    replacement: (_content, node) => ((node as HTMLInputElement).hasAttribute('checked') ? '[x] ' : '[ ] '),
  });
  td.addRule('safeLink', {
    filter: (node) => node.nodeName === 'A' && !SAFE_LINK.test(node.getAttribute('href') ?? ''),
    replacement: (content) => content,
  });
  td.addRule('safeImage', {
    filter: (node) => node.nodeName === 'IMG' && !SAFE_IMAGE.test(node.getAttribute('src') ?? ''),
    replacement: (_content, node) => (node as HTMLElement).getAttribute('alt') ?? '',
  });
  td.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const cells = Array.from(node.parentNode?.childNodes ?? []).filter(
        (n) => n.nodeName === 'TH' || n.nodeName === 'TD',
      );
      const first = cells[0] === node;
      return `${first ? '| ' : ' '}${cellText(content)} |`;
    },
  });
  td.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      let line = `\n${content}`;
      if (isHeadingRow(node)) {
        const count = cellsOf(node) || 1;
        line += `\n|${' --- |'.repeat(count)}`;
      }
      return line;
    },
  });
  td.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  td.addRule('table', {
    filter: 'table',
    replacement: (content) => `\n\n${content.replace(/\n+/g, '\n').trim()}\n\n`,
  });
  return td;
}

/** Converts pasted HTML to markdown (sanitized: see the module comment). */
export function htmlToMarkdown(html: string): string {
  service ??= build();
  return service
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
