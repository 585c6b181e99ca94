import type { Blockquote, Nodes, Paragraph, Parent, Root, RootContent } from 'mdast';
import { liquidAttributes, parseLiquidTagLine, type LiquidTag } from '../../shared/markdown/liquid-tags';
import { plainText } from '../../shared/markdown/parse';

export { separateLiquidTags } from '../../shared/markdown/liquid-tags';
import { ALERT_TO_HINT } from '../../shared/markdown/to-document';

/**
 * GitBook's block syntax, as GitBook's Git Sync writes it, turned into
 * elements the published site styles (mdast nodes carrying `data.hName`, so
 * mdast-util-to-hast makes them elements; the sanitizer then lets through only
 * the class names listed in BLOCK_CLASSES):
 * - hints: `{% hint style="info" %}…{% endhint %}` and GitHub alerts `> [!NOTE]`;
 * - tabs: `{% tabs %}{% tab title="…" %}…{% endtab %}{% endtabs %}` (stacked
 *   with their titles without JavaScript; the site script makes them tabs);
 * - expandables: `<details><summary>…</summary>…</details>`;
 * - content refs, embeds and files: link cards (no frames: the CSP forbids them);
 * - code titles / line numbers: `{% code title="…" lineNumbers="true" %}`;
 * - images with a title: a figure with its caption;
 * - GitBook's HTML figures (`<figure><img …><figcaption>…</figcaption></figure>`),
 *   with their dark-mode variant (`<picture><source srcset="dark.png"
 *   media="(prefers-color-scheme: dark)"><img src="light.png"></picture>`):
 *   rebuilt as markdown images (sanitized like any other), the two variants
 *   as `only-light` / `only-dark` images the site's theme shows one of (so
 *   the theme toggle switches them too, which `<picture>` could not);
 * - cards: `<table data-view="cards">` (GitBook writes the whole table as one
 *   HTML line): a grid of cards, each titled by its first visible cell and
 *   linked to its `data-card-target` cell's link. Only the text and that one
 *   URL are kept (as mdast text and link nodes: sanitized like any other).
 * - math: a paragraph that is one `$$…$$` formula is a display formula, and
 *   `$$…$$` inside a paragraph's text an inline one (as GitBook writes both);
 *   the TeX is read from the markdown source, so markdown never mangles it,
 *   and kept as text here (math.ts renders it after sanitizing).
 * Liquid tags must stand on a line of their own; they are recognized outside
 * code only, so code showing the syntax stays as written.
 */

/** Class names the blocks use (the sanitizer's allow list). */
export const BLOCK_CLASSES = [
  'hint',
  'hint-info',
  'hint-success',
  'hint-warning',
  'hint-danger',
  'hint-title',
  'tabs',
  'tab',
  'tab-title',
  'card',
  'cards',
  'card-title',
  'content-ref',
  'embed',
  'file',
  'code-block',
  'code-title',
  'line-numbers',
  'expandable',
  'math-display',
];

/** Class of inline formulas (on a span). */
export const INLINE_MATH_CLASS = 'math-inline';

/** Class names of the light and dark variants of an image. */
export const IMAGE_VARIANT_CLASSES = ['only-light', 'only-dark'];

function tagOf(node: RootContent): LiquidTag | undefined {
  // URLs in a tag's attributes may have become autolinks (GFM): read the paragraph's text.
  if (node.type !== 'paragraph' || !node.children.every((c) => c.type === 'text' || c.type === 'link'))
    return undefined;
  return parseLiquidTagLine(plainText(node));
}

/** An element node for mdast-util-to-hast (unknown types with children become `hName`). */
function element(tagName: string, className: string[], children: RootContent[], extra: object = {}): RootContent {
  return {
    type: 'folioBlock',
    data: { hName: tagName, hProperties: { className, ...extra } },
    children,
  } as unknown as RootContent;
}

const text = (value: string): RootContent => ({ type: 'text', value }) as unknown as RootContent;
const para = (children: RootContent[], className: string[] = []): RootContent =>
  className.length ? element('p', className, children) : ({ type: 'paragraph', children } as Paragraph);
const linkTo = (url: string, label: string): RootContent =>
  ({ type: 'link', url, children: [{ type: 'text', value: label }] }) as unknown as RootContent;

const HINT_STYLES = new Set(['info', 'success', 'warning', 'danger']);
const HINT_TITLES: Record<string, string> = { info: 'Info', success: 'Tip', warning: 'Warning', danger: 'Danger' };

function hint(style: string | undefined, children: RootContent[]): RootContent {
  const s = style && HINT_STYLES.has(style) ? style : 'info';
  return element('div', ['hint', `hint-${s}`], children, { role: 'note', ariaLabel: HINT_TITLES[s] });
}

/** Readable label of a URL: host and path, without the scheme. */
function urlLabel(url: string): string {
  return url.replace(/^[a-z]+:\/\//i, '').replace(/\/$/, '') || url;
}

function blockOf(tag: LiquidTag, children: RootContent[]): RootContent[] {
  switch (tag.name) {
    case 'hint':
      return [hint(tag.attrs.style, children)];
    case 'tabs':
      return [element('div', ['tabs'], children)];
    case 'tab':
      return [element('section', ['tab'], [para([text(tag.attrs.title ?? 'Tab')], ['tab-title']), ...children])];
    case 'content-ref':
      return [
        element(
          'div',
          ['card', 'content-ref'],
          children.length ? children : [para([linkTo(tag.attrs.url ?? '', tag.attrs.url ?? '')])],
        ),
      ];
    case 'code': {
      const title = tag.attrs.title ? [para([text(tag.attrs.title)], ['code-title'])] : [];
      const classes = ['code-block', ...(tag.attrs.lineNumbers === 'true' ? ['line-numbers'] : [])];
      return [element('div', classes, [...title, ...children])];
    }
    default:
      return children;
  }
}

/** Self-closing tags (their end tag, when present, only closes a caption that stays as text). */
function standalone(tag: LiquidTag): RootContent[] {
  const url = tag.attrs.url ?? tag.attrs.src ?? '';
  if (tag.name === 'embed') return [element('div', ['card', 'embed'], [para([linkTo(url, urlLabel(url))])])];
  const name = decodeURIComponent(url.split('/').pop() ?? '') || 'Download';
  return [element('div', ['card', 'file'], [para([linkTo(url, name)])])];
}

function isHtml(node: RootContent, pattern: RegExp): RegExpExecArray | null {
  return node.type === 'html' ? pattern.exec(node.value.trim()) : null;
}

const DETAILS_OPEN = /^<details(?:\s[^>]*)?>\s*(?:<summary>([\s\S]*?)<\/summary>)?$/i;
const DETAILS_CLOSE = /^<\/details>$/i;
const SUMMARY = /^<summary>([\s\S]*?)<\/summary>$/i;
const stripTags = (html: string) => html.replace(/<[^>]*>/g, '').trim();

const CARDS = /^<table\s[^>]*data-view="cards"[^>]*>[\s\S]*<\/table>$/i;
const decodeEntities = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16) % 0x110000))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d) % 0x110000))
    .replace(/&(amp|lt|gt|quot|nbsp);/g, (_, n: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', nbsp: ' ' })[n]!);

/** A GitBook cards table as a grid of cards, or undefined when `node` is not one. */
function cards(node: RootContent): RootContent | undefined {
  if (node.type !== 'html' || node.value.length > 200_000) return undefined;
  const html = node.value.trim();
  if (!CARDS.test(html)) return undefined;
  const heads = [...html.matchAll(/<th\b([^>]*)>/gi)].map((m) => m[1] ?? '');
  const target = heads.findIndex((a) => /data-card-target/i.test(a));
  const shown = heads.map((a) => !/data-hidden/i.test(a));
  const body = /<tbody>([\s\S]*)<\/tbody>/i.exec(html)?.[1] ?? '';
  const items = [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/gi)].map((row) => {
    const cells = [...(row[1] ?? '').matchAll(/<td>([\s\S]*?)<\/td>/gi)].map((c) => c[1] ?? '');
    const texts = cells
      .filter((_, i) => shown[i] ?? true)
      .map((c) => decodeEntities(stripTags(c)))
      .filter((t) => t !== '');
    const href = target >= 0 ? /<a\s[^>]*href="([^"]*)"/i.exec(cells[target] ?? '')?.[1] : undefined;
    const title = texts[0] ?? 'Untitled';
    const heading = href ? linkTo(decodeEntities(href), title) : text(title);
    return element('div', ['card'], [para([heading], ['card-title']), ...texts.slice(1).map((t) => para([text(t)]))]);
  });
  return items.length ? element('div', ['cards'], items) : undefined;
}

const HTML_FIGURE = /^<(figure|picture)\b[^>]*>[\s\S]*<\/\1>$/i;

/** A GitBook HTML figure or picture as markdown images (light, and dark when it has one) and caption. */
function htmlFigure(node: RootContent): RootContent | undefined {
  // `<figure>` starts an HTML block; a line starting with `<picture>` is a paragraph of inline HTML.
  const raw =
    node.type === 'html'
      ? node.value
      : node.type === 'paragraph' && node.children.every((c) => c.type === 'html')
        ? node.children.map((c) => (c as { value: string }).value).join('')
        : undefined;
  if (raw === undefined || raw.length > 20_000) return undefined;
  const html = raw.trim();
  if (!HTML_FIGURE.test(html)) return undefined;
  const img = liquidAttributes(/<img\b([^>]*)>/i.exec(html)?.[1] ?? '');
  if (!img.src) return undefined;
  const darkSource = [...html.matchAll(/<source\b([^>]*)>/gi)]
    .map((m) => liquidAttributes(m[1] ?? ''))
    .find((a) => /prefers-color-scheme:\s*dark/i.test(a.media ?? ''));
  // A srcset may list several candidates ("a.png 1x, b.png 2x"): the first one's URL.
  const dark = darkSource?.srcset?.trim().split(/[\s,]+/)[0];
  const alt = decodeEntities(img.alt ?? '');
  const image = (url: string, className?: string): RootContent =>
    ({
      type: 'image',
      url: decodeEntities(url),
      alt,
      ...(className ? { data: { hProperties: { className: [className] } } } : {}),
    }) as unknown as RootContent;
  const images = dark ? [image(img.src, 'only-light'), image(dark, 'only-dark')] : [image(img.src)];
  const caption = decodeEntities(stripTags(/<figcaption\b[^>]*>([\s\S]*?)<\/figcaption>/i.exec(html)?.[1] ?? ''));
  return element('figure', [], [para(images), ...(caption ? [element('figcaption', [], [text(caption)])] : [])]);
}

/** Blocks nested deeper than this keep their content but lose their frame (bounded work and recursion). */
const MAX_BLOCK_DEPTH = 16;

/** For each opening marker among `children`, the index of its closing one (same kind, properly nested). */
function matchingCloses(children: RootContent[]): Map<number, number> {
  const open = new Map<string, number[]>();
  const closes = new Map<number, number>();
  children.forEach((node, i) => {
    const tag = tagOf(node);
    let kind: string;
    let opening: boolean;
    if (tag && tag.name !== 'embed' && tag.name !== 'file') [kind, opening] = [tag.name, !tag.end];
    else if (isHtml(node, DETAILS_OPEN)) [kind, opening] = ['details', true];
    else if (isHtml(node, DETAILS_CLOSE)) [kind, opening] = ['details', false];
    else return;
    const stack = open.get(kind) ?? [];
    open.set(kind, stack);
    if (opening) stack.push(i);
    else {
      const from = stack.pop();
      if (from !== undefined) closes.set(from, i);
    }
  });
  return closes;
}

function expandable(marker: RootContent, inner: RootContent[]): RootContent {
  let summary = isHtml(marker, DETAILS_OPEN)?.[1];
  const first = inner[0] && isHtml(inner[0], SUMMARY);
  if (summary === undefined && first) {
    summary = first[1];
    inner = inner.slice(1);
  }
  const label = stripTags(summary ?? '') || 'Details';
  return element('details', ['expandable'], [element('summary', [], [text(label)]), ...inner]);
}

/** Groups a list of siblings into blocks between open/close markers (recursing into every parent). Linear per level. */
function group(children: RootContent[], depth = 0): RootContent[] {
  const out: RootContent[] = [];
  // Past the depth limit, markers are only dropped (no matching, no further frames).
  const closes = depth < MAX_BLOCK_DEPTH ? matchingCloses(children) : new Map<number, number>();
  for (let i = 0; i < children.length; i++) {
    const node = children[i]!;
    const tag = tagOf(node);
    if (tag && (tag.name === 'embed' || tag.name === 'file')) {
      if (!tag.end) out.push(...standalone(tag));
      continue;
    }
    const close = closes.get(i);
    if (close !== undefined) {
      const inner = group(children.slice(i + 1, close), depth + 1);
      out.push(...(tag ? blockOf(tag, inner) : [expandable(node, inner)]));
      i = close;
      continue;
    }
    const grid = cards(node) ?? htmlFigure(node);
    if (grid) {
      out.push(grid);
      continue;
    }
    // Unmatched markers (stray ends, unclosed opens) are dropped; their content stays.
    if (tag || isHtml(node, DETAILS_OPEN) || isHtml(node, DETAILS_CLOSE)) continue;
    out.push(transform(node, depth));
  }
  return out;
}

/** `> [!NOTE]` quotes as hints. */
function alert(node: Blockquote): RootContent | undefined {
  const first = node.children[0];
  const lead = first?.type === 'paragraph' ? first.children[0] : undefined;
  const m = lead?.type === 'text' ? /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?:\n|$)/i.exec(lead.value) : null;
  if (!first || first.type !== 'paragraph' || lead?.type !== 'text' || !m) return undefined;
  const rest = lead.value.slice(m[0].length);
  const inlines = rest === '' ? first.children.slice(1) : [{ ...lead, value: rest }, ...first.children.slice(1)];
  const children = [...(inlines.length ? [{ ...first, children: inlines }] : []), ...node.children.slice(1)];
  return hint(ALERT_TO_HINT[m[1]!.toUpperCase()], group(children, 1));
}

/** An image alone in its paragraph with a title: a figure with that caption. */
function figure(node: Paragraph): RootContent | undefined {
  const parts = node.children.filter((c) => !(c.type === 'text' && c.value.trim() === ''));
  const img = parts.length === 1 && parts[0]!.type === 'image' ? parts[0] : undefined;
  if (!img?.title) return undefined;
  return element('figure', [], [para([img as RootContent]), element('figcaption', [], [text(img.title)])]);
}

/** The markdown being rewritten (set for the duration of gitbookBlocks: formulas are read from it). */
let source = '';
const sourceOf = (node: Nodes): string | undefined => {
  const start = node.position?.start.offset;
  const end = node.position?.end.offset;
  return start !== undefined && end !== undefined ? source.slice(start, end) : undefined;
};

// One formula: no `$$` inside (a paragraph of several inline formulas is not a display formula).
const DISPLAY_MATH = /^\$\$((?:(?!\$\$)[\s\S])+)\$\$$/;
const INLINE_MATH = /\$\$([^$]{1,4000}?)\$\$/g;

/** A paragraph that is a single `$$…$$` formula, as a display-math element holding its TeX. */
function displayMath(node: Paragraph): RootContent | undefined {
  const raw = sourceOf(node)?.trim();
  const tex = raw && raw.length <= 20_000 ? DISPLAY_MATH.exec(raw)?.[1] : undefined;
  return tex?.trim() ? element('div', ['math-display'], [text(tex.trim())]) : undefined;
}

/**
 * `$$…$$` in the text nodes of a paragraph as inline-math spans. The TeX is
 * taken from the source when the source shows the same formulas (markdown
 * escapes such as `\{` would otherwise lose their backslash).
 */
function inlineMath(node: Paragraph): Paragraph {
  if (!node.children.some((c) => c.type === 'text' && c.value.includes('$$'))) return node;
  const children: Paragraph['children'] = [];
  for (const child of node.children) {
    if (child.type !== 'text' || !child.value.includes('$$')) {
      children.push(child);
      continue;
    }
    const parsed = [...child.value.matchAll(INLINE_MATH)];
    const raw = [...(sourceOf(child) ?? '').matchAll(INLINE_MATH)];
    const texOf = (i: number) => (raw.length === parsed.length ? raw[i]![1]! : parsed[i]![1]!);
    let at = 0;
    parsed.forEach((m, i) => {
      if (m.index > at) children.push({ type: 'text', value: child.value.slice(at, m.index) });
      children.push(element('span', [INLINE_MATH_CLASS], [text(texOf(i))]) as Paragraph['children'][number]);
      at = m.index + m[0].length;
    });
    if (at < child.value.length) children.push({ type: 'text', value: child.value.slice(at) });
  }
  return { ...node, children };
}

function transform(node: RootContent, depth: number): RootContent {
  if (node.type === 'blockquote') {
    const asHint = alert(node);
    if (asHint) return asHint;
  }
  if (node.type === 'paragraph') return figure(node) ?? displayMath(node) ?? inlineMath(node);
  if ('children' in node && node.type !== 'table' && node.type !== 'heading')
    (node as Parent).children = group((node as Parent).children, depth + 1) as Parent['children'];
  return node;
}

/** Rewrites the GitBook blocks of a parsed page in place. */
export function gitbookBlocks(tree: Root, markdown = ''): void {
  source = markdown;
  try {
    tree.children = group(tree.children);
  } finally {
    source = '';
  }
}

export type { Nodes };
