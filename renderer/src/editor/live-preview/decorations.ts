import type { EditorState, Line, Range } from '@codemirror/state';
import { Decoration } from '@codemirror/view';
import { syntaxTree } from '@codemirror/language';
import type { SyntaxNode, SyntaxNodeRef } from '@lezer/common';
import { expandableFoldRange, isFolded, toggleExpandable } from './folding';
import { openApiCatalogFacet } from '../openapi/catalog';
import { OperationWidget } from '../openapi/operation-widget';
import { integrationBlockDecorations } from '../integrations/decorate';
import { activeTabIndex, type GitbookBlock } from './gitbook-blocks';
import { findHtmlImages, parseMarkdownImage, type ImageRef } from './image-source';
import { inlinePieces } from './markdown-table';
import {
  BulletWidget,
  CheckboxWidget,
  CodeLabelWidget,
  EmbedWidget,
  ExpandableHeaderWidget,
  FileChipWidget,
  HintHeaderWidget,
  ImageWidget,
  PageCardWidget,
  TabStripWidget,
  hintStyle,
  type WidgetDeps,
} from './widgets';

/**
 * The inline part of live preview: for the visible ranges only, which
 * markdown syntax to hide, which widgets to draw and which lines to style,
 * given the lines that stay raw (those holding the cursor, a selection or a
 * collaborator's caret). Pure over an EditorState, so unit tests can ask
 * "what is hidden for this doc and cursor" without a browser.
 */

/** The decoration that hides syntax (tests recognize hidden ranges by it). */
export const hideSyntax = Decoration.replace({});

/** Lines (1-based numbers) shown as raw markdown. */
export class RevealedLines {
  private readonly lines: number[];
  constructor(lines: Iterable<number>) {
    this.lines = [...new Set(lines)].sort((a, b) => a - b);
  }
  /** The lines touched by the given ranges (selections, carets). */
  static of(state: EditorState, ranges: ReadonlyArray<{ from: number; to: number }>): RevealedLines {
    const lines: number[] = [];
    for (const r of ranges) {
      const first = state.doc.lineAt(Math.min(r.from, state.doc.length)).number;
      const last = state.doc.lineAt(Math.min(r.to, state.doc.length)).number;
      for (let n = first; n <= last && n - first < 10_000; n++) lines.push(n);
    }
    return new RevealedLines(lines);
  }
  has(line: number): boolean {
    return this.lines.includes(line);
  }
  /** Whether any line from `first` to `last` is revealed (a block shown raw as a whole). */
  any(first: number, last: number): boolean {
    return this.lines.some((n) => n >= first && n <= last);
  }
  get key(): string {
    return this.lines.join(',');
  }
}

interface Ctx {
  state: EditorState;
  revealed: RevealedLines;
  deps: WidgetDeps;
  out: Range<Decoration>[];
  lineClasses: Map<number, Set<string>>;
}

const mark = (cls: string) => Decoration.mark({ class: cls });
const MARKS: Record<string, Decoration> = {
  Emphasis: mark('cm-lp-em'),
  StrongEmphasis: mark('cm-lp-strong'),
  Strikethrough: mark('cm-lp-strike'),
  InlineCode: mark('cm-lp-inline-code'),
  URL: mark('cm-lp-link cm-lp-url'),
};
const linkText = mark('cm-lp-link');
const taskDone = mark('cm-lp-task-done');
const orderedMark = mark('cm-lp-ol-mark');
const bullet = Decoration.replace({ widget: new BulletWidget() });

function addLineClass(ctx: Ctx, line: Line, cls: string): void {
  let set = ctx.lineClasses.get(line.from);
  if (!set) ctx.lineClasses.set(line.from, (set = new Set()));
  set.add(cls);
}

function hide(ctx: Ctx, from: number, to: number): void {
  if (to > from) ctx.out.push(hideSyntax.range(from, to));
}

const lineOf = (ctx: Ctx, pos: number) => ctx.state.doc.lineAt(pos);
const isRevealed = (ctx: Ctx, pos: number) => ctx.revealed.has(lineOf(ctx, pos).number);

/** Hides `from..to` plus the spaces that follow it (a heading's `# `, a quote's `> `). */
function hideWithSpace(ctx: Ctx, from: number, to: number, limit: number): void {
  let end = to;
  while (end < limit && ctx.state.doc.sliceString(end, end + 1) === ' ') end++;
  hide(ctx, from, end);
}

/** Decorations of the visible ranges. */
export function buildInlineDecorations(
  state: EditorState,
  visible: ReadonlyArray<{ from: number; to: number }>,
  revealed: RevealedLines,
  blocks: readonly GitbookBlock[],
  deps: WidgetDeps,
): Range<Decoration>[] {
  const ctx: Ctx = { state, revealed, deps, out: [], lineClasses: new Map() };
  const tree = syntaxTree(state);
  for (const { from, to } of visible) {
    tree.iterate({ from, to, enter: (node) => enterNode(ctx, node, from, to) });
    for (const block of blocks) if (block.from <= to && block.to >= from) gitbookBlock(ctx, block, from, to);
  }
  // Integration blocks (`{% @integration/block %}`): what their integration renders.
  ctx.out.push(...integrationBlockDecorations(state, visible, (n) => revealed.has(n)));
  for (const [at, classes] of ctx.lineClasses)
    ctx.out.push(Decoration.line({ class: [...classes].join(' ') }).range(at));
  return ctx.out;
}

/** Applies `fn` to each line of `from..to` inside the visible range. */
function eachLine(ctx: Ctx, from: number, to: number, vFrom: number, vTo: number, fn: (line: Line) => void): void {
  const doc = ctx.state.doc;
  let pos = Math.max(from, doc.lineAt(vFrom).from);
  const end = Math.min(to, vTo);
  while (pos <= end) {
    const line = doc.lineAt(pos);
    fn(line);
    pos = line.to + 1;
  }
}

function enterNode(ctx: Ctx, ref: SyntaxNodeRef, vFrom: number, vTo: number): boolean | void {
  const name = ref.name;
  const node = ref.node;
  if (name.startsWith('ATXHeading')) return heading(ctx, node, Number(name.slice(-1)));
  if (name.startsWith('SetextHeading')) return setext(ctx, node, Number(name.slice(-1)));
  switch (name) {
    case 'Emphasis':
    case 'StrongEmphasis':
    case 'Strikethrough':
    case 'InlineCode':
      if (node.to > node.from) ctx.out.push(MARKS[name]!.range(node.from, node.to));
      return;
    case 'URL':
      if (node.parent?.name !== 'Link' && node.parent?.name !== 'Image' && node.to > node.from)
        ctx.out.push(MARKS.URL!.range(node.from, node.to));
      return;
    case 'EmphasisMark':
    case 'StrikethroughMark':
      if (!isRevealed(ctx, node.from)) hide(ctx, node.from, node.to);
      return;
    case 'CodeMark':
      if (node.parent?.name === 'InlineCode' && !isRevealed(ctx, node.from)) hide(ctx, node.from, node.to);
      return;
    case 'Link':
      link(ctx, node);
      return;
    case 'Image':
      image(ctx, node);
      return false;
    case 'HTMLBlock':
    case 'HTMLTag':
      htmlImages(ctx, node);
      return false;
    case 'FencedCode':
      fencedCode(ctx, node, vFrom, vTo);
      return false;
    case 'Blockquote':
      blockquote(ctx, node, vFrom, vTo);
      return;
    case 'QuoteMark':
      if (!isRevealed(ctx, node.from)) hideWithSpace(ctx, node.from, node.to, lineOf(ctx, node.from).to);
      return;
    case 'ListMark':
      listMark(ctx, node);
      return;
    case 'Task':
      task(ctx, node);
      return;
    case 'Table':
      if (ctx.revealed.any(lineOf(ctx, node.from).number, lineOf(ctx, node.to).number))
        eachLine(ctx, node.from, node.to, vFrom, vTo, (l) => addLineClass(ctx, l, 'cm-lp-table-source'));
      return false; // rendered by the block field when not revealed
    case 'HorizontalRule':
      if (!isRevealed(ctx, node.from)) {
        addLineClass(ctx, lineOf(ctx, node.from), 'cm-lp-hr');
        hide(ctx, node.from, node.to);
      }
      return;
  }
}

function heading(ctx: Ctx, node: SyntaxNode, level: number): void {
  const line = lineOf(ctx, node.from);
  addLineClass(ctx, line, `cm-lp-h cm-lp-h${level}`);
  if (ctx.revealed.has(line.number)) return;
  const marks = node.getChildren('HeaderMark');
  marks.forEach((m, i) => {
    if (i === 0 && m.from === node.from) hideWithSpace(ctx, m.from, m.to, node.to);
    else {
      // A closing `##` sequence: hide it with the spaces before it.
      let start = m.from;
      while (start > node.from && ctx.state.doc.sliceString(start - 1, start) === ' ') start--;
      hide(ctx, start, m.to);
    }
  });
}

function setext(ctx: Ctx, node: SyntaxNode, level: number): void {
  const first = lineOf(ctx, node.from);
  const last = lineOf(ctx, node.to);
  addLineClass(ctx, first, `cm-lp-h cm-lp-h${level}`);
  if (ctx.revealed.any(first.number, last.number)) return;
  const underline = node.getChild('HeaderMark');
  if (underline) {
    addLineClass(ctx, lineOf(ctx, underline.from), 'cm-lp-collapsed');
    hide(ctx, underline.from, underline.to);
  }
}

function link(ctx: Ctx, node: SyntaxNode): void {
  const marks = node.getChildren('LinkMark');
  const open = marks[0];
  const close = marks[1];
  if (!open || !close || open.from !== node.from) return;
  const url = node.getChild('URL');
  const href = url ? ctx.state.doc.sliceString(url.from, url.to) : '';
  const text = href
    ? Decoration.mark({ class: 'cm-lp-link', attributes: { title: `${href} (Ctrl/Cmd+click to open)` } })
    : linkText;
  if (close.from > open.to) ctx.out.push(text.range(open.to, close.from));
  if (isRevealed(ctx, node.from)) return;
  hide(ctx, open.from, open.to);
  hide(ctx, close.from, node.to);
}

function imageWidget(ctx: Ctx, image: ImageRef, from: number, to: number): void {
  const source = ctx.state.doc.sliceString(from, to);
  const url = ctx.deps.resolveFile(image.src);
  if (isRevealed(ctx, from)) {
    ctx.out.push(Decoration.widget({ widget: new ImageWidget(image, url, source, 'after'), side: 1 }).range(to));
  } else {
    ctx.out.push(Decoration.replace({ widget: new ImageWidget(image, url, source, 'replace') }).range(from, to));
  }
}

function image(ctx: Ctx, node: SyntaxNode): void {
  const parsed = parseMarkdownImage(ctx.state.doc.sliceString(node.from, node.to));
  if (parsed) imageWidget(ctx, parsed, node.from, node.to);
}

function htmlImages(ctx: Ctx, node: SyntaxNode): void {
  if (node.to - node.from > 5000) return;
  const html = ctx.state.doc.sliceString(node.from, node.to);
  if (!/<img\b/i.test(html)) return;
  for (const img of findHtmlImages(html)) imageWidget(ctx, img, node.from + img.from, node.from + img.to);
}

function fencedCode(ctx: Ctx, node: SyntaxNode, vFrom: number, vTo: number): void {
  const first = lineOf(ctx, node.from);
  const last = lineOf(ctx, node.to);
  const raw = ctx.revealed.any(first.number, last.number);
  const closed = last.number > first.number && /^\s*(```|~~~)/.test(last.text);
  eachLine(ctx, node.from, node.to, vFrom, vTo, (line) => {
    const classes = ['cm-lp-code'];
    if (line.number === first.number) classes.push('cm-lp-code-first');
    if (line.number === last.number) classes.push('cm-lp-code-last');
    addLineClass(ctx, line, classes.join(' '));
  });
  if (raw) return;
  if (first.from >= vFrom && first.from <= vTo) {
    const info = node.getChild('CodeInfo');
    const lang = info ? ctx.state.doc.sliceString(info.from, info.to) : '';
    ctx.out.push(Decoration.replace({ widget: new CodeLabelWidget(lang) }).range(first.from, first.to));
  }
  if (closed && last.from >= vFrom && last.from <= vTo) {
    addLineClass(ctx, last, 'cm-lp-code-end');
    hide(ctx, last.from, last.to);
  }
}

const ALERT = /^\s*>\s*\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]/i;
const ALERT_STYLE: Record<string, string> = {
  NOTE: 'info',
  IMPORTANT: 'info',
  TIP: 'success',
  WARNING: 'warning',
  CAUTION: 'danger',
};

function blockquote(ctx: Ctx, node: SyntaxNode, vFrom: number, vTo: number): void {
  const first = lineOf(ctx, node.from);
  const alert = ALERT.exec(first.text);
  const style = alert ? hintStyle(ALERT_STYLE[alert[1]!.toUpperCase()]) : undefined;
  eachLine(ctx, node.from, node.to, vFrom, vTo, (line) =>
    addLineClass(ctx, line, style ? `cm-lp-hint cm-lp-hint-${style}` : 'cm-lp-quote'),
  );
  if (alert && style && !ctx.revealed.has(first.number) && first.from >= vFrom) {
    const marker = first.text.indexOf('[!');
    const end = first.text.indexOf(']', marker) + 1;
    ctx.out.push(
      Decoration.replace({ widget: new HintHeaderWidget(style) }).range(first.from + marker, first.from + end),
    );
  }
}

function listMark(ctx: Ctx, node: SyntaxNode): void {
  const list = node.parent?.parent?.name;
  if (list === 'OrderedList') {
    ctx.out.push(orderedMark.range(node.from, node.to));
    return;
  }
  if (list !== 'BulletList' || isRevealed(ctx, node.from)) return;
  const isTask = node.parent?.getChild('Task') !== null;
  if (isTask) hideWithSpace(ctx, node.from, node.to, lineOf(ctx, node.from).to);
  else ctx.out.push(bullet.range(node.from, node.to));
}

function task(ctx: Ctx, node: SyntaxNode): void {
  const marker = node.getChild('TaskMarker');
  if (!marker) return;
  const checked = /x/i.test(ctx.state.doc.sliceString(marker.from, marker.to));
  let textFrom = marker.to;
  while (textFrom < node.to && ctx.state.doc.sliceString(textFrom, textFrom + 1) === ' ') textFrom++;
  if (checked && node.to > textFrom) ctx.out.push(taskDone.range(textFrom, node.to));
  if (isRevealed(ctx, marker.from)) return;
  // The task's text, as read, names the checkbox for screen readers.
  const label = inlinePieces(ctx.state.doc.sliceString(textFrom, Math.min(node.to, textFrom + 300)))
    .map((p) => p.text)
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  ctx.out.push(Decoration.replace({ widget: new CheckboxWidget(checked, label) }).range(marker.from, marker.to));
}

/** A line that only holds a closing or helper tag: hidden and collapsed to a sliver when not revealed. */
function collapse(ctx: Ctx, line: Line, extraClass = ''): void {
  if (extraClass) addLineClass(ctx, line, extraClass);
  if (ctx.revealed.has(line.number)) return;
  addLineClass(ctx, line, 'cm-lp-collapsed');
  hide(ctx, line.from, line.to);
}

/** Draws `widget` over a tag line unless it is revealed. */
function overTag(ctx: Ctx, line: Line, widget: Decoration): void {
  if (!ctx.revealed.has(line.number) && line.to > line.from) ctx.out.push(widget.range(line.from, line.to));
}

function gitbookBlock(ctx: Ctx, block: GitbookBlock, vFrom: number, vTo: number): void {
  const doc = ctx.state.doc;
  const open = doc.lineAt(block.open.from);
  const close = block.close ? doc.lineAt(block.close.from) : undefined;
  const inView = (line: Line | undefined): line is Line =>
    !!line && line.from >= doc.lineAt(vFrom).from && line.from <= vTo;
  const body = (cls: string) => {
    if (!close || close.number - open.number < 2) return;
    eachLine(ctx, open.to + 1, close.from - 1, vFrom, vTo, (l) => addLineClass(ctx, l, cls));
  };
  switch (block.kind) {
    case 'hint': {
      const style = hintStyle(block.attrs.style);
      const cls = `cm-lp-hint cm-lp-hint-${style}`;
      if (inView(open)) {
        addLineClass(ctx, open, `${cls} cm-lp-hint-first`);
        overTag(ctx, open, Decoration.replace({ widget: new HintHeaderWidget(style) }));
      }
      body(cls);
      if (inView(close)) collapse(ctx, close, `${cls} cm-lp-hint-last`);
      return;
    }
    case 'tabs': {
      // Only the active tab's body shows (block-fields.ts folds the others away).
      const active = activeTabIndex(block, ctx.state.selection.main.head);
      if (inView(open)) {
        addLineClass(ctx, open, 'cm-lp-tabs-line');
        const titles = block.tabs.map((t, i) => t.attrs.title ?? `Tab ${i + 1}`);
        overTag(ctx, open, Decoration.replace({ widget: new TabStripWidget(titles, active) }));
      }
      body('cm-lp-tabs-body');
      if (inView(close)) collapse(ctx, close, 'cm-lp-tabs-body cm-lp-tabs-last');
      return;
    }
    case 'tab':
      // The strip names the active tab: its own tag line and end tag collapse to slivers.
      if (inView(open)) collapse(ctx, open);
      if (inView(close)) collapse(ctx, close);
      return;
    case 'expandable':
    case 'details': {
      const title = block.attrs.title ?? block.summary?.rest ?? '';
      if (inView(open)) {
        // The header's button folds the body away (folding.ts); the text stays as it is.
        const range = expandableFoldRange(doc, block);
        const folded = range !== null && isFolded(ctx.state, range);
        addLineClass(ctx, open, `cm-lp-expandable cm-lp-expandable-first${folded ? ' cm-lp-expandable-folded' : ''}`);
        const header = new ExpandableHeaderWidget(title, folded, range ? toggleExpandable : undefined);
        overTag(ctx, open, Decoration.replace({ widget: header }));
      }
      body('cm-lp-expandable');
      if (block.summary) {
        const summary = doc.lineAt(block.summary.from);
        if (inView(summary)) collapse(ctx, summary);
      }
      if (inView(close)) collapse(ctx, close, 'cm-lp-expandable cm-lp-expandable-last');
      return;
    }
    case 'embed':
      if (inView(open)) overTag(ctx, open, Decoration.replace({ widget: new EmbedWidget(block.attrs.url ?? '') }));
      body('cm-lp-caption');
      if (inView(close)) collapse(ctx, close);
      return;
    case 'content-ref': {
      const inner = close ? doc.sliceString(open.to, close.from) : '';
      const title = /\[([^\]]*)\]\(/.exec(inner)?.[1] ?? '';
      const url = block.attrs.url ?? '';
      if (inView(open)) overTag(ctx, open, Decoration.replace({ widget: new PageCardWidget(url, title, ctx.deps) }));
      if (close) {
        for (let n = open.number + 1; n < close.number; n++) {
          const l = doc.line(n);
          if (inView(l)) collapse(ctx, l);
        }
        if (inView(close)) collapse(ctx, close);
      }
      return;
    }
    case 'openapi-operation':
    case 'openapi':
    case 'swagger': {
      // The card stands for the whole block: GitBook's fallback text between the tags collapses.
      if (inView(open)) overTag(ctx, open, Decoration.replace({ widget: operationWidget(ctx, block) }));
      if (close) {
        for (let n = open.number + 1; n <= close.number; n++) {
          const l = doc.line(n);
          if (inView(l)) collapse(ctx, l);
        }
      }
      return;
    }
    case 'file': {
      const src = block.attrs.src ?? '';
      if (inView(open))
        overTag(
          ctx,
          open,
          Decoration.replace({ widget: new FileChipWidget(src, block.open.rest.trim(), ctx.deps.resolveFile(src)) }),
        );
      body('cm-lp-caption');
      if (inView(close)) collapse(ctx, close);
      return;
    }
  }
}

/** The card of an API operation block; the summary only when the catalog already holds it (no network here). */
function operationWidget(ctx: Ctx, block: GitbookBlock): OperationWidget {
  const { spec, src, path = '', method = '' } = block.attrs;
  const slug = block.kind === 'openapi-operation' ? (spec ?? '') : '';
  const summary = slug ? ctx.state.facet(openApiCatalogFacet)?.summary(slug, path, method) : undefined;
  return new OperationWidget({
    method,
    path,
    spec: slug || src || '',
    ...(summary ? { summary } : {}),
  });
}
