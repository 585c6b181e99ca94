import type { IconName } from '../../ui/icons';
import {
  CURSOR as C,
  insertBlock,
  insertLink,
  setLineKind,
  toggleInline,
  type LineKind,
  type StateCommand,
} from './commands';

/**
 * Everything the toolbar and the `/` menu insert, in one catalog: a label,
 * an icon, the words the `/` menu matches, and the command (or, for the
 * image, an action that needs the page view: the file picker).
 *
 * Block markdown is written exactly as GitBook writes it (its "Markdown
 * representation" of each block), so pages round-trip through GitBook's Git
 * sync and the REST markdown unchanged.
 */

/** One formatting action or block. */
export interface AuthoringItem {
  id: string;
  label: string;
  /** A short explanation, shown in the `/` menu. */
  detail: string;
  icon: IconName;
  /** Extra words the `/` menu filter matches. */
  keywords?: string;
  /** CodeMirror key name (`Mod-b`) of its shortcut, if any. */
  key?: string;
  /** The markdown edit; absent for actions the page view runs (the image picker). */
  command?: StateCommand;
  /** A block's template (CURSOR marks the selection), which the `/` menu inserts in place of its query. */
  template?: string;
  /** The line prefix a block command sets (headings, lists, quote). */
  lineKind?: LineKind;
  /** Inline formatting (toolbar only) or a block (toolbar and `/` menu). */
  inline?: boolean;
  /** The `/` menu group it is listed under (integration blocks: "Integrations"); none: the built-in blocks. */
  section?: string;
}

/** Template of a GitBook hint of `style`. */
export function hintTemplate(style: 'info' | 'success' | 'warning' | 'danger'): string {
  return `{% hint style="${style}" %}\n${C}Write the hint here.${C}\n{% endhint %}`;
}

const TABS = [
  '{% tabs %}',
  '{% tab title="Tab 1" %}',
  `${C}Content of the first tab.${C}`,
  '{% endtab %}',
  '',
  '{% tab title="Tab 2" %}',
  'Content of the second tab.',
  '{% endtab %}',
  '{% endtabs %}',
].join('\n');

// GitBook's expandable block is HTML <details>; the blank lines let markdown inside it render.
const EXPANDABLE = `<details>\n\n<summary>${C}Title${C}</summary>\n\nContent shown when expanded.\n\n</details>`;

const TABLE = [`| ${C}Column 1${C} | Column 2 |`, '| -------- | -------- |', '|          |          |'].join('\n');

// GitBook's cards are an HTML table with data-view="cards": title, description, and a hidden link target.
const CARDS =
  '<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead>' +
  `<tbody><tr><td><strong>${C}Card title${C}</strong></td><td>Card description</td><td></td></tr>` +
  '<tr><td><strong>Second card</strong></td><td>Card description</td><td></td></tr></tbody></table>';

/**
 * GitBook's API operation block: the spec (one of the organization's, by slug) is selected so the
 * picker (editor/openapi/spec-picker.ts) can fill it in; path and method are placeholders to edit.
 */
export const API_OPERATION = `{% openapi-operation spec="${C}spec-slug${C}" path="/path" method="get" %}\n{% endopenapi-operation %}`;

/** The inline formats (toolbar buttons and shortcuts, not in the `/` menu). */
export const INLINE_ITEMS: readonly AuthoringItem[] = [
  {
    id: 'bold',
    label: 'Bold',
    detail: '**bold**',
    icon: 'bold',
    key: 'Mod-b',
    command: toggleInline('**', 'bold text'),
    inline: true,
  },
  {
    id: 'italic',
    label: 'Italic',
    detail: '_italic_',
    icon: 'italic',
    key: 'Mod-i',
    command: toggleInline('_', 'italic text'),
    inline: true,
  },
  {
    id: 'strike',
    label: 'Strikethrough',
    detail: '~~struck~~',
    icon: 'strikethrough',
    key: 'Mod-Shift-x',
    command: toggleInline('~~', 'struck text'),
    inline: true,
  },
  {
    id: 'code',
    label: 'Inline code',
    detail: '`code`',
    icon: 'code',
    key: 'Mod-e',
    command: toggleInline('`', 'code'),
    inline: true,
  },
  // Mod-K is the app's "find a page"; links take Mod-Alt-K.
  {
    id: 'link',
    label: 'Link',
    detail: '[text](url)',
    icon: 'link',
    key: 'Mod-Alt-k',
    command: insertLink,
    inline: true,
  },
];

/** The blocks, in the order the toolbar and the `/` menu list them. */
export const BLOCK_ITEMS: readonly AuthoringItem[] = [
  {
    id: 'h1',
    label: 'Heading 1',
    detail: 'Large section heading',
    icon: 'heading-1',
    keywords: 'title h1',
    key: 'Mod-Alt-1',
    lineKind: 'h1',
  },
  {
    id: 'h2',
    label: 'Heading 2',
    detail: 'Medium section heading',
    icon: 'heading-2',
    keywords: 'subtitle h2',
    key: 'Mod-Alt-2',
    lineKind: 'h2',
  },
  {
    id: 'h3',
    label: 'Heading 3',
    detail: 'Small section heading',
    icon: 'heading-3',
    keywords: 'h3',
    key: 'Mod-Alt-3',
    lineKind: 'h3',
  },
  {
    id: 'bullet',
    label: 'Bulleted list',
    detail: 'A simple list',
    icon: 'list',
    keywords: 'unordered ul bullet',
    key: 'Mod-Shift-8',
    lineKind: 'bullet',
  },
  {
    id: 'numbered',
    label: 'Numbered list',
    detail: 'A list with numbers',
    icon: 'list-ordered',
    keywords: 'ordered ol number',
    key: 'Mod-Shift-7',
    lineKind: 'numbered',
  },
  {
    id: 'task',
    label: 'Task list',
    detail: 'A list with checkboxes',
    icon: 'list-checks',
    keywords: 'todo checkbox check',
    key: 'Mod-Shift-9',
    lineKind: 'task',
  },
  {
    id: 'quote',
    label: 'Quote',
    detail: 'A quotation',
    icon: 'quote',
    keywords: 'blockquote citation',
    lineKind: 'quote',
  },
  {
    id: 'codeblock',
    label: 'Code block',
    detail: 'Code with syntax highlighting',
    icon: 'code-block',
    keywords: 'pre fence snippet',
    key: 'Mod-Alt-c',
    template: `\`\`\`\n${C}${C}\n\`\`\``,
  },
  { id: 'table', label: 'Table', detail: 'Rows and columns', icon: 'table', keywords: 'grid', template: TABLE },
  {
    id: 'hint',
    label: 'Hint',
    detail: 'An info callout',
    icon: 'info',
    keywords: 'callout info note alert',
    template: hintTemplate('info'),
  },
  {
    id: 'hint-success',
    label: 'Success hint',
    detail: 'A green callout',
    icon: 'circle-check',
    keywords: 'callout hint tip',
    template: hintTemplate('success'),
  },
  {
    id: 'hint-warning',
    label: 'Warning hint',
    detail: 'A yellow callout',
    icon: 'triangle-alert',
    keywords: 'callout hint caution',
    template: hintTemplate('warning'),
  },
  {
    id: 'hint-danger',
    label: 'Danger hint',
    detail: 'A red callout',
    icon: 'octagon-alert',
    keywords: 'callout hint error',
    template: hintTemplate('danger'),
  },
  { id: 'tabs', label: 'Tabs', detail: 'Content in tabs', icon: 'layers', keywords: 'tabbed', template: TABS },
  {
    id: 'expandable',
    label: 'Expandable',
    detail: 'A collapsible section',
    icon: 'chevrons-down-up',
    keywords: 'details collapse accordion toggle',
    template: EXPANDABLE,
  },
  {
    id: 'api-operation',
    label: 'API operation',
    detail: 'An endpoint from an OpenAPI spec',
    icon: 'code',
    keywords: 'openapi swagger endpoint rest reference',
    template: API_OPERATION,
  },
  {
    id: 'embed',
    label: 'Embed',
    detail: 'A video, tweet or web page by URL',
    icon: 'globe',
    keywords: 'url youtube video iframe',
    template: `{% embed url="${C}https://${C}" %}`,
  },
  {
    id: 'content-ref',
    label: 'Page reference',
    detail: 'A card linking another page',
    icon: 'file-text',
    keywords: 'content-ref content ref page link',
    template: `{% content-ref url="${C}page.md${C}" %}\n[page.md](page.md)\n{% endcontent-ref %}`,
  },
  {
    id: 'file',
    label: 'File',
    detail: 'A downloadable file',
    icon: 'paperclip',
    keywords: 'attachment download',
    template: `{% file src="${C}https://${C}" %}`,
  },
  {
    id: 'cards',
    label: 'Cards',
    detail: 'A grid of cards',
    icon: 'credit-card',
    keywords: 'card grid',
    template: CARDS,
  },
  { id: 'image', label: 'Image', detail: 'Upload an image', icon: 'image', keywords: 'picture photo upload' },
  {
    id: 'divider',
    label: 'Divider',
    detail: 'A horizontal rule',
    icon: 'minus',
    keywords: 'hr rule separator line',
    template: `---\n${C}`,
  },
];

/** Every item, for lookups by id. */
export const ALL_ITEMS: readonly AuthoringItem[] = [...INLINE_ITEMS, ...BLOCK_ITEMS];

/** The command of an item: its own, or the one its line kind or template makes. */
export function commandOf(item: AuthoringItem): StateCommand | undefined {
  if (item.command) return item.command;
  if (item.lineKind) return setLineKind(item.lineKind);
  if (item.template !== undefined) return insertBlock(item.template);
  return undefined;
}

/** "Mod-Alt-k" as people read it on this platform ("Ctrl+Alt+K", "⌘⌥K"). */
export function keyLabel(key: string, mac: boolean): string {
  const parts = key.split('-');
  const last = parts.pop()!;
  const names: Record<string, string> = mac
    ? { Mod: '⌘', Alt: '⌥', Shift: '⇧', Ctrl: '⌃' }
    : { Mod: 'Ctrl', Alt: 'Alt', Shift: 'Shift', Ctrl: 'Ctrl' };
  const mods = parts.map((p) => names[p] ?? p);
  const keyName = last.length === 1 ? last.toUpperCase() : last;
  return mac ? [...mods, keyName].join('') : [...mods, keyName].join('+');
}
