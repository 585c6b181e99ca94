import type { Blockquote, Heading, Image, List, Nodes, Paragraph, RootContent, Table } from 'mdast';
import { generateNKeysBetween } from 'fractional-indexing';
import type { DocBlock, DocFragment, DocRef, HintStyle, JSONDocument } from './document-types';
import {
  collectDefinitions,
  headingAnchors,
  MarkdownTooComplexError,
  parseMarkdown,
  plainText,
  withDepthGuard,
} from './parse';
import { emptyText, imageRef, inlineNodes, type InlineContext } from './to-document-inline';
import { blocksByBlankLines, blocksOfNodes, type MarkdownBlock } from './block-keys';
import { findOpenApiBlocks, type OpenApiBlock } from './openapi-block';
import {
  codeblockToBlock,
  findIntegrationTags,
  type CodeblockMapping,
  type IntegrationBlockRef,
  type IntegrationTagBlock,
} from './integration-block';

/**
 * markdown -> GitBook JSONDocument. GitBook restricts which blocks may nest
 * where (a quote holds only paragraphs, headings, lists, dividers and quotes;
 * a list item no images; ...), so conversion tracks its container and
 * degrades a block that is not allowed there to the closest allowed form.
 */

/** Options of markdownToDocument. */
export interface ToDocumentOptions {
  /**
   * Maps a link/image href to a reference (e.g. resolveLink against the
   * revision). Default: every href stays `{kind: 'url', url: href}`, which
   * round-trips exactly.
   */
  resolve?: (href: string) => DocRef;
  /**
   * Gives every top-level block its `key` (block-keys.ts: derived from its
   * markdown, so unchanged blocks keep their keys across versions), as the
   * documents Folio serves do. Off by default: a document built to be turned
   * back into markdown, or compared, needs none.
   */
  blockKeys?: boolean;
  /**
   * The fence languages installed integrations map to their blocks (integration-block.ts): such a
   * fence at the top level becomes the integration's block. Default: none (fences stay code).
   */
  integrationCodeblocks?: readonly CodeblockMapping[];
}

type Container = 'top' | 'item' | 'quote' | 'hint';

/** GitHub alert markers (`> [!NOTE]`) -> GitBook hint styles. */
export const ALERT_TO_HINT: Readonly<Record<string, HintStyle>> = {
  NOTE: 'info',
  IMPORTANT: 'info',
  TIP: 'success',
  WARNING: 'warning',
  CAUTION: 'danger',
};
const ALERT = /^\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\][ \t]*(?:\n|$)/i;

interface Ctx extends InlineContext {
  anchors: Map<Heading, string>;
  /** The page's OpenAPI blocks (openapi-block.ts); each becomes one block, the nodes it spans none. */
  openapi: { blocks: OpenApiBlock[]; done: Set<OpenApiBlock> };
  /** The page's integration tags by line (integration-block.ts). */
  integrationTags: Map<number, IntegrationTagBlock>;
  integrationCodeblocks: readonly CodeblockMapping[];
}

/** GitBook's DocumentBlockIntegration. */
function integrationBlock(ref: IntegrationBlockRef): DocBlock {
  return {
    object: 'block',
    type: 'integration',
    data: { integration: ref.integration, block: ref.block, props: ref.props },
    isVoid: true,
  };
}

/** The integration block a top-level node is: a tag alone on its line, or a mapped fence. */
function integrationOf(node: RootContent, ctx: Ctx): DocBlock | undefined {
  const start = (node.position?.start.line ?? 0) - 1;
  if ((node.type === 'paragraph' || node.type === 'html') && start === (node.position?.end.line ?? 0) - 1) {
    const tag = ctx.integrationTags.get(start);
    return tag ? integrationBlock(tag) : undefined;
  }
  if (node.type === 'code' && ctx.integrationCodeblocks.length > 0) {
    const ref = codeblockToBlock(node.lang, node.meta, node.value, ctx.integrationCodeblocks);
    return ref ? integrationBlock(ref) : undefined;
  }
  return undefined;
}

/**
 * GitBook's block for an OpenAPI operation: `openapi-operation` (DocumentBlockOpenAPIOperation)
 * for a spec named by slug, `swagger` (DocumentBlockOpenAPI, a URL ref) for the older forms.
 */
function openApiBlock(b: OpenApiBlock): DocBlock {
  const ref = b.spec !== undefined ? { kind: 'openapi', spec: b.spec } : { kind: 'url', url: b.src ?? '' };
  return {
    object: 'block',
    type: b.spec !== undefined ? 'openapi-operation' : 'swagger',
    data: { ref, path: b.path, method: b.method },
    isVoid: true,
  };
}

/** A top-level node: an OpenAPI block when it starts inside one (once per block), else converted. */
function topLevel(node: RootContent, ctx: Ctx): DocBlock[] {
  const line = (node.position?.start.line ?? 0) - 1;
  const api = ctx.openapi.blocks.find((b) => line >= b.startLine && line < b.endLine);
  if (!api) {
    const integration = integrationOf(node, ctx);
    return integration ? [integration] : convert(node, 'top', ctx);
  }
  if (ctx.openapi.done.has(api)) return [];
  ctx.openapi.done.add(api);
  return [openApiBlock(api)];
}

const block = (type: string, data: Record<string, unknown>, nodes: DocBlock['nodes']): DocBlock => ({
  object: 'block',
  type,
  data,
  nodes,
  isVoid: false,
});

function paragraph(node: Paragraph | { children: Paragraph['children'] }, ctx: Ctx): DocBlock {
  return block('paragraph', {}, inlineNodes(node.children, ctx));
}

/** A paragraph holding only images (and blank text) is an image gallery at the top level. */
function imagesOnly(node: Paragraph): Image[] | undefined {
  const images: Image[] = [];
  for (const c of node.children) {
    if (c.type === 'image') images.push(c);
    else if (!(c.type === 'text' && c.value.trim() === '')) return undefined;
  }
  return images.length > 0 ? images : undefined;
}

function imageBlock(img: Image, ctx: Ctx): DocBlock {
  const data: Record<string, unknown> = { ref: imageRef(img.url, ctx) };
  if (img.alt) data.alt = img.alt;
  const fragments: DocFragment[] = img.title
    ? [
        {
          object: 'fragment',
          fragment: 'caption',
          nodes: [block('paragraph', {}, inlineNodes([{ type: 'text', value: img.title }], ctx))],
        },
      ]
    : [];
  return { object: 'block', type: 'image', data, fragments, isVoid: true };
}

/** `> [!NOTE]` quotes: the style and the quote's content without the marker, or undefined. */
function alertOf(node: Blockquote): { style: HintStyle; children: RootContent[] } | undefined {
  const first = node.children[0];
  const text = first?.type === 'paragraph' ? first.children[0] : undefined;
  const m = text?.type === 'text' ? ALERT.exec(text.value) : null;
  if (!first || first.type !== 'paragraph' || !text || text.type !== 'text' || !m) return undefined;
  const rest = text.value.slice(m[0].length);
  const inlines = rest === '' ? first.children.slice(1) : [{ ...text, value: rest }, ...first.children.slice(1)];
  const children =
    inlines.length > 0 ? [{ ...first, children: inlines }, ...node.children.slice(1)] : node.children.slice(1);
  return { style: ALERT_TO_HINT[m[1]!.toUpperCase()]!, children };
}

function list(node: List, ctx: Ctx): DocBlock {
  const tasks = node.children.some((item) => typeof item.checked === 'boolean');
  const items = node.children.map((item) => {
    const nodes = blocks(item.children, 'item', ctx);
    return block(
      'list-item',
      tasks ? { checked: item.checked === true } : {},
      nodes.length > 0 ? nodes : [block('paragraph', {}, [emptyText()])],
    );
  });
  if (tasks) return block('list-tasks', {}, items);
  if (node.ordered)
    return block(
      'list-ordered',
      typeof node.start === 'number' && node.start !== 1 ? { start: node.start } : {},
      items,
    );
  return block('list-unordered', {}, items);
}

function table(node: Table, ctx: Ctx): DocBlock {
  const [head, ...rows] = node.children;
  const width = Math.max(0, ...node.children.map((r) => r.children.length));
  const columns = Array.from({ length: width }, (_, i) => `c${i}`);
  const definition: Record<string, unknown> = {};
  columns.forEach((id, i) => {
    const align = node.align?.[i];
    definition[id] = {
      id,
      title: head?.children[i] ? plainText(head.children[i]) : '',
      type: 'text',
      textAlignment: align ?? 'left',
    };
  });
  const keys = rows.length > 0 ? generateNKeysBetween(null, null, rows.length) : [];
  const records: Record<string, unknown> = {};
  const fragments: DocFragment[] = [];
  rows.forEach((row, r) => {
    const values: Record<string, string> = {};
    columns.forEach((col, c) => {
      const fragment = `r${r}-${col}`;
      values[col] = fragment;
      fragments.push({
        object: 'fragment',
        fragment,
        type: 'table-cell',
        nodes: [paragraph({ children: row.children[c]?.children ?? [] }, ctx)],
      });
    });
    records[`r${r}`] = { orderIndex: keys[r], values };
  });
  const data = { view: { type: 'grid', columns, hideHeader: false }, records, definition };
  return { object: 'block', type: 'table', data, fragments, isVoid: true };
}

/** A block that cannot live in this container, flattened into paragraphs of its text. */
function asParagraphs(node: Nodes, code: boolean, ctx: Ctx): DocBlock[] {
  const text = plainText(node);
  if (text === '') return [];
  return [
    block(
      'paragraph',
      {},
      inlineNodes([code ? { type: 'inlineCode', value: text } : { type: 'text', value: text }], ctx),
    ),
  ];
}

function convert(node: RootContent, container: Container, ctx: Ctx): DocBlock[] {
  switch (node.type) {
    case 'paragraph': {
      const images = container === 'top' ? imagesOnly(node) : undefined;
      if (images)
        return [
          { object: 'block', type: 'images', data: {}, nodes: images.map((i) => imageBlock(i, ctx)), isVoid: false },
        ];
      return [paragraph(node, ctx)];
    }
    case 'heading':
      return [
        {
          ...block(`heading-${Math.min(node.depth, 3)}`, {}, inlineNodes(node.children, ctx)),
          meta: { id: ctx.anchors.get(node) ?? 'section' },
        },
      ];
    case 'thematicBreak':
      return [{ object: 'block', type: 'divider', data: {}, isVoid: true }];
    case 'list':
      return [list(node, ctx)];
    case 'code': {
      if (container === 'quote' || container === 'hint') return asParagraphs(node, true, ctx);
      const lines = node.value
        .split('\n')
        .map((line) =>
          block('code-line', {}, [
            line === '' ? emptyText() : { object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] },
          ]),
        );
      return [block('code', node.lang ? { syntax: node.lang } : {}, lines)];
    }
    case 'blockquote': {
      const alert = alertOf(node);
      if (alert && (container === 'top' || container === 'item'))
        return [block('hint', { style: alert.style }, blocks(alert.children, 'hint', ctx))];
      // Quotes may not contain hints, and hints not quotes: flatten there.
      if (container === 'hint') return blocks(node.children, container, ctx);
      return [block('blockquote', {}, blocks(node.children, 'quote', ctx))];
    }
    case 'table':
      return container === 'quote' ? asParagraphs(node, false, ctx) : [table(node, ctx)];
    case 'html':
      return asParagraphs({ type: 'text', value: node.value }, false, ctx);
    case 'footnoteDefinition':
      return blocks(node.children, container, ctx);
    default:
      // definitions (already applied to links), front matter: no block of their own.
      return [];
  }
}

function blocks(nodes: readonly RootContent[], container: Container, ctx: Ctx): DocBlock[] {
  return nodes.flatMap((n) => convert(n, container, ctx));
}

/**
 * Converts markdown to a GitBook JSONDocument (`{object: 'document', data: {}, nodes}`).
 * Markdown nested too deeply to parse (MarkdownTooComplexError) becomes
 * plain-text paragraphs, so the page still reads instead of failing.
 */
export function markdownToDocument(markdown: string, options: ToDocumentOptions = {}): JSONDocument {
  const resolve = options.resolve ?? ((href: string): DocRef => ({ kind: 'url', url: href }));
  try {
    return withDepthGuard(() => {
      const tree = parseMarkdown(markdown);
      const ctx: Ctx = {
        resolve,
        definitions: collectDefinitions(tree),
        anchors: headingAnchors(tree),
        openapi: { blocks: findOpenApiBlocks(markdown), done: new Set() },
        integrationTags: new Map(findIntegrationTags(markdown).map((t) => [t.line, t])),
        integrationCodeblocks: options.integrationCodeblocks ?? [],
      };
      if (!options.blockKeys)
        return { object: 'document', data: {}, nodes: tree.children.flatMap((n) => topLevel(n, ctx)) };
      const keys = blocksOfNodes(markdown, tree.children);
      const nodes = tree.children.flatMap((n, i) => withKeys(topLevel(n, ctx), keys[i]!));
      return { object: 'document', data: {}, nodes };
    });
  } catch (err) {
    if (!(err instanceof MarkdownTooComplexError)) throw err;
    // The blank-line chunks, as plain paragraphs (the same chunks block-keys.ts keys).
    const chunks = blocksByBlankLines(markdown);
    return {
      object: 'document',
      data: {},
      nodes: chunks.map((c) => {
        const text = markdown.slice(c.start, c.end);
        const node = block('paragraph', {}, [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }]);
        return options.blockKeys ? { ...node, key: c.key } : node;
      }),
    };
  }
}

/** The nodes one markdown block became, keyed: the first by the block's key, the others `<key>.2`, `<key>.3`… */
function withKeys(nodes: DocBlock[], block: MarkdownBlock): DocBlock[] {
  return nodes.map((node, i) => ({ ...node, key: i === 0 ? block.key : `${block.key}.${i + 1}` }));
}
