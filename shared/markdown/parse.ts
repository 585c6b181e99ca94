import type { Definition, Heading, Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown, gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
import { gfm } from 'micromark-extension-gfm';
import { AnchorSlugger } from './slug';

/**
 * Markdown parsing and serialization with one fixed dialect: CommonMark +
 * GitHub Flavored Markdown (tables, task lists, strikethrough, autolinks,
 * footnotes). Every module goes through these two functions so the dialect
 * and the output style are the same everywhere.
 */

// The extension objects are pure configuration: build them once.
const micromarkExtensions = [gfm()];
const fromExtensions = [gfmFromMarkdown()];
const toExtensions = [gfmToMarkdown()];

/** Parses markdown into an mdast tree (with positions). */
export function parseMarkdown(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: micromarkExtensions, mdastExtensions: fromExtensions });
}

/**
 * Serializes an mdast tree in Folio's canonical style: `-` bullets, fenced
 * code, `---` rules, `**strong**`, `*emphasis*`, one space after list markers.
 */
export function stringifyMarkdown(tree: Nodes, handlers?: ToMarkdownOptions['handlers']): string {
  return toMarkdown(tree, {
    extensions: toExtensions,
    bullet: '-',
    emphasis: '*',
    strong: '*',
    rule: '-',
    fence: '`',
    fences: true,
    listItemIndent: 'one',
    incrementListMarker: true,
    handlers,
  });
}

/** Concatenated text of a node: block children separated by newlines, table cells by tabs. */
export function plainText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
    case 'code':
      return node.value;
    case 'break':
      return '\n';
    case 'image':
    case 'imageReference':
      return node.alt ?? '';
    case 'html':
    case 'definition':
    case 'footnoteReference':
    case 'thematicBreak':
    case 'yaml':
      return '';
    case 'tableRow':
      return node.children.map(plainText).join('\t');
    case 'root':
    case 'blockquote':
    case 'list':
    case 'listItem':
    case 'table':
    case 'footnoteDefinition':
      return node.children
        .map(plainText)
        .filter((t) => t !== '')
        .join('\n');
    default:
      return 'children' in node ? (node.children as Nodes[]).map(plainText).join('') : '';
  }
}

/**
 * The anchor of every heading, in document order (headings nested in lists
 * or quotes included), unique within the page. Shared by analysis and the
 * document conversion so a section id and a heading block id always agree.
 */
export function headingAnchors(tree: Root): Map<Heading, string> {
  const slugger = new AnchorSlugger();
  const anchors = new Map<Heading, string>();
  const visit = (node: Nodes) => {
    if (node.type === 'heading') anchors.set(node, slugger.slug(plainText(node)));
    else if ('children' in node) for (const child of node.children as Nodes[]) visit(child);
  };
  visit(tree);
  return anchors;
}

/** Link reference definitions (`[id]: url`) by identifier; the first definition of an id wins, as in CommonMark. */
export function collectDefinitions(tree: Root): Map<string, Definition> {
  const definitions = new Map<string, Definition>();
  const visit = (node: Nodes) => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
    else if ('children' in node) for (const c of node.children as Nodes[]) visit(c);
  };
  visit(tree);
  return definitions;
}

/**
 * Input nested so deeply (thousands of quotes or lists) that parsing or
 * converting it exhausts the call stack. The parser itself recurses per
 * level, so there is no depth that is safe for every input: callers map
 * this to "cannot process" instead of crashing.
 *
 * This guards the stack only, not time: the slow inputs (nested brackets,
 * long delimiter runs, wide tables, lazy lines in nested lists) never
 * overflow the stack, they take seconds. limits.ts refuses the known shapes
 * up front and the server parses in a worker pool with a time budget.
 */
export class MarkdownTooComplexError extends Error {
  constructor() {
    super('the content is nested too deeply to be processed');
    this.name = 'MarkdownTooComplexError';
  }
}

/** Runs `fn`, turning a stack overflow into MarkdownTooComplexError (other errors pass through). */
export function withDepthGuard<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof RangeError) throw new MarkdownTooComplexError();
    throw err;
  }
}
