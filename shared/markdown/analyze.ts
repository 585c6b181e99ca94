import type { Heading, Nodes, Root, RootContent } from 'mdast';
import { classifyHref, type LinkKind } from './links';
import {
  collectDefinitions,
  headingAnchors,
  MarkdownTooComplexError,
  parseMarkdown,
  plainText,
  withDepthGuard,
} from './parse';

/** Where a link sits in the markdown source. */
export interface SourcePosition {
  /** UTF-16 offsets of the link's source text. */
  start: number;
  end: number;
  /** 1-based line of `start`. */
  line: number;
}

/** One link or image of a page, classified by syntax (resolve it with resolveLink). */
export interface MarkdownLink {
  kind: LinkKind;
  /** Decoded path-like target without fragment; the URL itself for kind 'url'; '' for same-page anchors. */
  target: string;
  anchor?: string;
  /** The href as written (after reference-definition lookup). */
  href: string;
  /** Visible text (alt text for images). */
  text: string;
  /** Whether this is an image rather than a link. */
  image: boolean;
  position: SourcePosition;
}

/**
 * A heading and the text up to the next heading. Content before the first
 * heading is a section with level 0, id '' and title '' (present only when
 * not empty), so search indexing sees the whole page.
 */
export interface MarkdownSection {
  /** Anchor of the heading, unique within the page ('' for the intro). */
  id: string;
  title: string;
  /** 1-6 for headings, 0 for the intro. */
  level: number;
  /** Plain text of the section's blocks, newline-separated. */
  body: string;
}

/** What a page's markdown links to and how it is divided. */
export interface MarkdownAnalysis {
  links: MarkdownLink[];
  sections: MarkdownSection[];
}

function positionOf(node: Nodes): SourcePosition {
  const p = node.position;
  return { start: p?.start.offset ?? 0, end: p?.end.offset ?? 0, line: p?.start.line ?? 1 };
}

/** Links and images of the tree, in document order, with `[text][ref]` references resolved. */
function collectLinks(tree: Root): MarkdownLink[] {
  const definitions = collectDefinitions(tree);

  const links: MarkdownLink[] = [];
  const add = (node: Nodes, href: string, text: string, image: boolean) => {
    links.push({ ...classifyHref(href), href, text, image, position: positionOf(node) });
  };
  const visit = (node: Nodes) => {
    switch (node.type) {
      case 'link':
        add(node, node.url, plainText(node), false);
        break;
      case 'image':
        add(node, node.url, node.alt ?? '', true);
        break;
      case 'linkReference':
      case 'imageReference': {
        const def = definitions.get(node.identifier);
        if (def)
          add(
            node,
            def.url,
            node.type === 'imageReference' ? (node.alt ?? '') : plainText(node),
            node.type === 'imageReference',
          );
        break;
      }
    }
    // Images may sit inside links: keep walking.
    if ('children' in node) for (const c of node.children as Nodes[]) visit(c);
  };
  visit(tree);
  return links;
}

function collectSections(tree: Root): MarkdownSection[] {
  const anchors = headingAnchors(tree);
  const sections: MarkdownSection[] = [];
  let current: { id: string; title: string; level: number; blocks: RootContent[] } = {
    id: '',
    title: '',
    level: 0,
    blocks: [],
  };
  const close = () => {
    const body = current.blocks
      .map((b) => plainText(b))
      .filter((t) => t !== '')
      .join('\n');
    if (current.level > 0 || body !== '')
      sections.push({ id: current.id, title: current.title, level: current.level, body });
  };
  for (const block of tree.children) {
    if (block.type === 'heading') {
      close();
      current = { id: anchors.get(block as Heading) ?? '', title: plainText(block), level: block.depth, blocks: [] };
    } else current.blocks.push(block);
  }
  close();
  return sections;
}

/**
 * Parses `markdown` and returns its links and sections. Pathologically
 * nested input (see MarkdownTooComplexError) has an empty analysis rather
 * than failing whoever asked (link listings, search indexing).
 */
export function analyzeMarkdown(markdown: string): MarkdownAnalysis {
  try {
    return withDepthGuard(() => {
      const tree = parseMarkdown(markdown);
      return { links: collectLinks(tree), sections: collectSections(tree) };
    });
  } catch (err) {
    if (err instanceof MarkdownTooComplexError) return { links: [], sections: [] };
    throw err;
  }
}
