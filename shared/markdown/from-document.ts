import type {
  BlockContent,
  Image,
  List,
  ListItem,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Table,
  TableRow,
} from 'mdast';
import type { Info, Options, State } from 'mdast-util-to-markdown';
import type { DocBlock, DocFragment, DocRef, HintStyle, JSONDocument } from './document-types';
import { DEFAULT_HREFS, hrefOf, phrasing, type HrefContext } from './from-document-inline';
import { stringifyMarkdown, withDepthGuard } from './parse';
import { blockToCodeblock, integrationTag, type CodeblockMapping } from './integration-block';

/**
 * GitBook JSONDocument -> markdown (Folio's canonical style). The inverse of
 * markdownToDocument for the constructs it produces, so that markdown ->
 * document -> markdown -> document is stable. Blocks Folio does not know
 * (embeds, tabs, OpenAPI, ...) keep whatever text they contain.
 */

/** Options of documentToMarkdown. */
export interface FromDocumentOptions {
  /** The href to write for a page/file/anchor/url reference; default: `/pages/<id>`, `/files/<id>`, `#a`, the URL. */
  hrefFor?: (ref: DocRef) => string | undefined;
  /** Integration blocks whose manifest maps them to a fence language are written as such fences. */
  integrationCodeblocks?: readonly CodeblockMapping[];
}

/** What converting a block needs: how to write hrefs, and the integrations' fence mappings. */
interface Ctx extends HrefContext {
  integrationCodeblocks: readonly CodeblockMapping[];
}

const HINT_TO_ALERT: Readonly<Record<HintStyle, string>> = {
  info: 'NOTE',
  success: 'TIP',
  warning: 'WARNING',
  danger: 'CAUTION',
};

/** mdast has no hint node: this private node type is serialized by `hintHandler`. */
interface HintNode {
  type: 'folioHint';
  style: string;
  children: BlockContent[];
}

/** Writes a hint as a GitHub alert: `> [!NOTE]` then the content, all quoted. */
function hintHandler(node: HintNode, _parent: unknown, state: State, info: Info): string {
  const exit = state.enter('blockquote');
  const tracker = state.createTracker(info);
  tracker.move('> ');
  tracker.shift(2);
  const inner = state.containerFlow(node as unknown as Root, tracker.current());
  exit();
  const marker = `[!${HINT_TO_ALERT[node.style as HintStyle] ?? 'NOTE'}]`;
  return state.indentLines(inner ? `${marker}\n${inner}` : marker, (line, _, blank) => '>' + (blank ? '' : ' ') + line);
}

const isBlock = (n: NonNullable<DocBlock['nodes']>[number]): n is DocBlock => n.object === 'block';
const childBlocks = (b: DocBlock): DocBlock[] => (b.nodes ?? []).filter(isBlock);
const paragraph = (children: PhrasingContent[]): Paragraph => ({ type: 'paragraph', children });

function image(b: DocBlock, ctx: HrefContext): Image {
  const alt = typeof b.data.alt === 'string' ? b.data.alt : '';
  const caption = b.fragments?.find((f) => f.fragment === 'caption');
  const title = caption ? caption.nodes.map((p) => phrasing(p.nodes, ctx).map(textOf).join('')).join(' ') : '';
  return { type: 'image', url: hrefOf(b.data, ctx), alt, title: title || null };
}

function textOf(p: PhrasingContent): string {
  if ('value' in p) return p.value;
  return 'children' in p ? (p.children as PhrasingContent[]).map(textOf).join('') : '';
}

function list(b: DocBlock, ctx: Ctx): List {
  const tasks = b.type === 'list-tasks';
  const start = typeof b.data.start === 'number' ? b.data.start : 1;
  const items = childBlocks(b).map((item): ListItem => {
    const checked = tasks ? item.data.checked === true : null;
    return { type: 'listItem', spread: false, checked, children: blocks(childBlocks(item), ctx) as BlockContent[] };
  });
  return {
    type: 'list',
    ordered: b.type === 'list-ordered',
    start: b.type === 'list-ordered' ? start : null,
    spread: false,
    children: items,
  };
}

function table(b: DocBlock, ctx: HrefContext): Table | undefined {
  const data = b.data as {
    view?: { columns?: string[] };
    definition?: Record<string, { title?: string; textAlignment?: string }>;
    records?: Record<string, { orderIndex?: string; values?: Record<string, unknown> }>;
  };
  const definition = data.definition ?? {};
  const columns = data.view?.columns ?? Object.keys(definition);
  if (columns.length === 0) return undefined;
  const fragments = new Map<string, DocFragment>((b.fragments ?? []).map((f) => [f.fragment, f]));
  const cell = (children: PhrasingContent[]) => ({ type: 'tableCell' as const, children });
  const head: TableRow = {
    type: 'tableRow',
    children: columns.map((c) => cell([{ type: 'text', value: (definition[c]?.title ?? '').replace(/\n/g, ' ') }])),
  };
  const records = Object.entries(data.records ?? {}).sort(([ia, a], [ib, b]) => {
    const ka = a.orderIndex ?? '';
    const kb = b.orderIndex ?? '';
    return ka !== kb ? (ka < kb ? -1 : 1) : ia < ib ? -1 : ia > ib ? 1 : 0;
  });
  const rows = records.map(([, record]): TableRow => ({
    type: 'tableRow',
    children: columns.map((c) => {
      const value = record.values?.[c];
      const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
      if (fragment)
        return cell(
          fragment.nodes.flatMap((p, i) => [
            ...(i > 0 ? [{ type: 'text' as const, value: ' ' }] : []),
            ...phrasing(p.nodes, ctx, true),
          ]),
        );
      return cell(
        value === undefined || value === null ? [] : [{ type: 'text', value: String(value).replace(/\n/g, ' ') }],
      );
    }),
  }));
  const align = columns.map((c) => {
    const a = definition[c]?.textAlignment;
    // 'left' is the default rendering: written without a colon.
    return a === 'center' || a === 'right' ? a : null;
  });
  return { type: 'table', align, children: [head, ...rows] };
}

function convert(b: DocBlock, ctx: Ctx): RootContent[] {
  switch (b.type) {
    case 'paragraph':
      return [paragraph(phrasing(b.nodes, ctx))];
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return [{ type: 'heading', depth: Number(b.type.slice(-1)) as 1 | 2 | 3, children: phrasing(b.nodes, ctx) }];
    case 'divider':
      return [{ type: 'thematicBreak' }];
    case 'list-unordered':
    case 'list-ordered':
    case 'list-tasks':
      return [list(b, ctx)];
    case 'code': {
      const lines = childBlocks(b).map((line) => phrasing(line.nodes, ctx).map(textOf).join(''));
      return [
        {
          type: 'code',
          lang: typeof b.data.syntax === 'string' && b.data.syntax ? b.data.syntax : null,
          meta: null,
          value: lines.join('\n'),
        },
      ];
    }
    case 'blockquote':
      return [{ type: 'blockquote', children: blocks(childBlocks(b), ctx) as BlockContent[] }];
    case 'hint': {
      const hint: HintNode = {
        type: 'folioHint',
        style: String(b.data.style ?? 'info'),
        children: blocks(childBlocks(b), ctx) as BlockContent[],
      };
      return [hint as unknown as RootContent];
    }
    case 'images': {
      const images = childBlocks(b).map((i) => image(i, ctx));
      return images.length === 0
        ? []
        : [
            paragraph(
              images.flatMap((img, i): PhrasingContent[] => (i === 0 ? [img] : [{ type: 'text', value: ' ' }, img])),
            ),
          ];
    }
    case 'image':
      return [paragraph([image(b, ctx)])];
    case 'table': {
      const t = table(b, ctx);
      return t ? [t] : [];
    }
    case 'integration':
      return integrationNode(b, ctx);
    case 'openapi-operation':
    case 'swagger': {
      const tag = openApiTag(b);
      return tag ? [{ type: 'html', value: tag }] : [];
    }
    default: {
      // Unknown block: keep its content — nested blocks, or its inline text.
      const nested = childBlocks(b);
      if (nested.length > 0) return blocks(nested, ctx);
      const inline = phrasing(b.nodes, ctx);
      return inline.length > 0 ? [paragraph(inline)] : [];
    }
  }
}

/** An integration block: its fence when its manifest maps it to one, else its tag (integration-block.ts). */
function integrationNode(b: DocBlock, ctx: Ctx): RootContent[] {
  const { integration, block, props } = b.data;
  if (typeof integration !== 'string' || typeof block !== 'string' || !integration || !block) return [];
  const ref = { integration, block, props: isPlainObject(props) ? props : {} };
  const fence = blockToCodeblock(ref, ctx.integrationCodeblocks);
  if (fence) return [{ type: 'code', lang: fence.lang, meta: fence.meta, value: fence.code }];
  return [{ type: 'html', value: integrationTag(ref) }];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** An OpenAPI block as GitBook's liquid tags (shared/markdown/openapi-block.ts), or undefined without a spec. */
function openApiTag(b: DocBlock): string | undefined {
  const ref = (b.data.ref ?? {}) as { kind?: string; spec?: unknown; url?: unknown };
  // Attribute values are double-quoted and cannot hold a quote or a line break.
  const attr = (v: unknown) => String(v ?? '').replace(/["\n\r%]/g, '');
  const where = `path="${attr(b.data.path)}" method="${attr(b.data.method).toLowerCase()}"`;
  if (b.type === 'openapi-operation' && ref.kind === 'openapi' && typeof ref.spec === 'string')
    return `{% openapi-operation spec="${attr(ref.spec)}" ${where} %}\n{% endopenapi-operation %}`;
  if (b.type === 'swagger' && ref.kind === 'url' && typeof ref.url === 'string')
    return `{% openapi src="${attr(ref.url)}" ${where} %}\n{% endopenapi %}`;
  return undefined;
}

function blocks(nodes: readonly DocBlock[], ctx: Ctx): RootContent[] {
  return nodes.flatMap((b) => convert(b, ctx));
}

/**
 * Converts a GitBook JSONDocument to markdown ('' for an empty document).
 * @throws MarkdownTooComplexError when the document nests too deeply to convert (a 400 for REST callers).
 */
export function documentToMarkdown(doc: JSONDocument, options: FromDocumentOptions = {}): string {
  const custom = options.hrefFor;
  const hrefs: HrefContext = custom ? { hrefFor: (ref) => custom(ref) ?? DEFAULT_HREFS.hrefFor(ref) } : DEFAULT_HREFS;
  const ctx: Ctx = { ...hrefs, integrationCodeblocks: options.integrationCodeblocks ?? [] };
  return withDepthGuard(() => {
    const root: Root = { type: 'root', children: blocks(doc.nodes ?? [], ctx) };
    if (root.children.length === 0) return '';
    const handlers = { folioHint: hintHandler } as unknown as Options['handlers'];
    return stringifyMarkdown(root, handlers);
  });
}
