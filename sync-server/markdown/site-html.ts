import { randomBytes } from 'node:crypto';
import type { Element, Nodes as HastNodes, Root as HastRoot } from 'hast';
import { defaultSchema, sanitize, type Schema } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import { toHast } from 'mdast-util-to-hast';
import { AnchorSlugger, parseMarkdown, plainText } from '../../shared/markdown';
import { degradedNote, type Degradation } from '../../shared/markdown/degraded';
import {
  BLOCK_CLASSES,
  gitbookBlocks,
  IMAGE_VARIANT_CLASSES,
  INLINE_MATH_CLASS,
  separateLiquidTags,
} from './gitbook-blocks';
import { renderMath } from './math';
import { highlightCodeBlocks } from './highlight-hast';

/**
 * A page's markdown as the sanitized HTML body of a published page. Raw HTML
 * in markdown is dropped (mdast-util-to-hast without `allowDangerousHtml`),
 * then the tree goes through hast-util-sanitize with GitHub's schema: no
 * scripts, event handlers, `javascript:` URLs, styles or forms survive, and
 * ids are prefixed (`user-content-`) so content cannot clobber DOM globals.
 *
 * This is the expensive part (parsing), done once per page text in the parse
 * pool. What depends on where the page is served (link targets, which follow
 * the site's URLs) is left as placeholders: each surviving `href`/`src` value
 * is replaced by `<token>_<i>_` and listed in `links`, for the published site
 * to substitute per request without parsing (published-site/markdown.ts).
 * Links are rewritten after sanitizing: the sanitizer has already dropped
 * unsafe URLs, and rewriting only ever produces the site's own page, anchor
 * and file URLs.
 */
export interface SiteBody {
  /** The body HTML, with link placeholders. */
  html: string;
  /** Random per body (letters and digits): content written before it was drawn cannot forge a placeholder. */
  token: string;
  /** The original `href`/`src` of each placeholder, in order. */
  links: string[];
  /** Set when the page is shown as plain text (see shared/markdown/degraded.ts). */
  degraded?: Degradation;
  /** Level 2 and 3 headings (ids as in the HTML), for the page's table of contents. */
  headings?: { depth: number; id: string; text: string }[];
}

/**
 * GitHub's schema, plus the classes of GitBook blocks (gitbook-blocks.ts) and
 * figures. Heading ids keep their plain anchors (`#install`, as search results
 * and `/pages/<id>#install` links say): only `name` and ARIA references are
 * prefixed. The published site's own script reads no named globals, so an id
 * cannot clobber anything it uses.
 */
type PropertyDefinition = NonNullable<Schema['attributes']>[string][number];
function withClasses(tag: string, classes: string[], ...more: string[]): PropertyDefinition[] {
  const base = defaultSchema.attributes?.[tag] ?? [];
  const isClass = (a: PropertyDefinition) => Array.isArray(a) && a[0] === 'className';
  const existing = (base.find(isClass) as unknown[] | undefined)?.slice(1) ?? [];
  return [...base.filter((a) => !isClass(a)), ['className', ...classes, ...(existing as string[])], ...more];
}
const SCHEMA: Schema = {
  ...defaultSchema,
  clobber: (defaultSchema.clobber ?? []).filter((name) => name !== 'id'),
  tagNames: [...(defaultSchema.tagNames ?? []), 'figure', 'figcaption'],
  attributes: {
    ...defaultSchema.attributes,
    div: withClasses('div', BLOCK_CLASSES, 'role', 'ariaLabel'),
    section: withClasses('section', ['tab']),
    p: withClasses('p', ['tab-title', 'code-title', 'card-title']),
    details: withClasses('details', ['expandable']),
    img: withClasses('img', IMAGE_VARIANT_CLASSES),
    span: withClasses('span', [INLINE_MATH_CLASS]),
  },
};

function walk(node: HastNodes, fn: (el: Element) => void): void {
  if (node.type === 'element') fn(node);
  if ('children' in node) for (const child of node.children) walk(child as HastNodes, fn);
}

/** Heading ids as the app and the API compute them (AnchorSlugger over the heading's text). */
function addHeadingIds(tree: HastRoot, headingTexts: string[]): void {
  const slugger = new AnchorSlugger();
  let i = 0;
  walk(tree, (el) => {
    if (/^h[1-6]$/.test(el.tagName)) el.properties.id = slugger.slug(headingTexts[i++] ?? '');
  });
}

/** Parses and renders `markdown` (run it in the parse pool). */
export function renderSiteBody(markdown: string): SiteBody {
  const source = separateLiquidTags(markdown);
  const mdast = parseMarkdown(source);
  gitbookBlocks(mdast, source);
  const headingTexts: string[] = [];
  const collect = (n: { type: string; children?: unknown[] }) => {
    if (n.type === 'heading') headingTexts.push(plainText(n as Parameters<typeof plainText>[0]));
    for (const c of n.children ?? []) collect(c as { type: string; children?: unknown[] });
  };
  collect(mdast);
  const hast = toHast(mdast) as HastRoot;
  addHeadingIds(hast, headingTexts);
  const clean = sanitize(hast, SCHEMA) as HastRoot;
  // After sanitizing: the highlighter only adds spans with its own class names around the code's text.
  highlightCodeBlocks(clean);
  const headings: NonNullable<SiteBody['headings']> = [];
  const formulas: Element[] = [];
  walk(clean, (el) => {
    const classes = Array.isArray(el.properties.className) ? el.properties.className : [];
    if (classes.includes('math-display') || classes.includes(INLINE_MATH_CLASS)) formulas.push(el);
    // Task list checkboxes have no label of their own.
    if (el.tagName === 'input' && el.properties.type === 'checkbox')
      el.properties.ariaLabel = el.properties.checked ? 'Done' : 'Not done';
    if ((el.tagName === 'h2' || el.tagName === 'h3') && typeof el.properties.id === 'string')
      headings.push({ depth: Number(el.tagName[1]), id: el.properties.id, text: hastText(el) });
  });
  const token = `folio${randomBytes(12).toString('hex')}`;
  const links: string[] = [];
  const placeholder = (value: string) => `${token}_${links.push(value) - 1}_`;
  walk(clean, (el) => {
    if (el.tagName === 'a' && typeof el.properties.href === 'string')
      el.properties.href = placeholder(el.properties.href);
    if (el.tagName === 'img' && typeof el.properties.src === 'string')
      el.properties.src = placeholder(el.properties.src);
  });
  // After sanitizing and after the link walk (KaTeX's MathML, built with `trust: false`, holds no links).
  renderMath(formulas);
  // Raw nodes are only the MathML just added (the sanitizer drops any other).
  return { html: toHtml(clean, { allowDangerousHtml: true }), token, links, headings };
}

function hastText(node: HastNodes): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map((c) => hastText(c as HastNodes)).join('') : '';
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page as preformatted text under a note, marked with the `folio-degraded` class. No parsing. */
export function degradedSiteBody(markdown: string, degraded: Degradation): SiteBody {
  const html =
    `<div class="folio-degraded" data-degraded="${degraded.reason}">` +
    `<p class="folio-degraded-note">${escapeHtml(degradedNote(degraded))}</p>` +
    `<pre class="folio-degraded-text">${escapeHtml(markdown)}</pre></div>`;
  return { html, token: '', links: [], degraded };
}
