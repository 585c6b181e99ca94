import { checkMarkdownLimits } from '../../shared/markdown/limits';
import {
  segmentationOf,
  withRebuild,
  type MarkdownSegmentation,
  type MarkdownSegments,
} from '../../shared/markdown/translation/markdown-segments';
import { buildSegment, rebuildText, type Segment, type Span } from '../../shared/markdown/translation/segment';
import { throwIfAborted } from './errors';

/**
 * A page's text as segments (title, description, markdown) and back. Titles and descriptions are
 * plain text: only a literal ⟦ or ⟧ is protected, and a title stays on one line. The markdown is
 * parsed on this thread, or handed to a segmenter: the server's parse pool (MarkdownService.segments),
 * since a large page takes seconds to parse and the event loop must not wait for it.
 */

/** Segments markdown off this thread (limits checked, too slow or too complex degraded: the pool's rules). */
export type MarkdownSegmenter = (markdown: string) => Promise<MarkdownSegmentation>;

/**
 * Pages in a worker at once, at most. The pool has one or two threads and serves every request's
 * parsing too: a run keeps the queue short instead of filling it (a task waiting in the pool's queue
 * past its cap counts as too slow, and the page would be kept untranslated).
 */
export const SEGMENTER_LANES = 2;

export interface PageText {
  title: string;
  description?: string;
  markdown?: string;
}

export interface PageSegments {
  title: Segment;
  description?: Segment;
  markdown?: MarkdownSegments;
  /** Why the markdown is kept as it is (too large or nested too deeply to parse safely). */
  untranslatedReason?: string;
  /** Every segment in order: title, description, then the markdown's. */
  all: readonly Segment[];
}

function plainSegment(text: string, singleLine: boolean): Segment {
  const spans: Span[] = [...text.matchAll(/[⟦⟧]/g)].map((m) => ({ start: m.index, end: m.index + 1, kind: 'inline' }));
  if (!singleLine)
    for (const m of text.matchAll(/[ \t]*\r?\n[ \t]*/g))
      spans.push({ start: m.index, end: m.index + m[0].length, kind: 'joint' });
  return buildSegment(text, 0, text.length, spans, { singleLine });
}

/** The page's segments, its markdown's (when it has markdown) given. */
function pageSegments(text: PageText, segmentation: MarkdownSegmentation | undefined): PageSegments {
  const title = plainSegment(text.title, true);
  const description = text.description ? plainSegment(text.description, false) : undefined;
  let markdown: MarkdownSegments | undefined;
  let untranslatedReason: string | undefined;
  if (segmentation && 'untranslated' in segmentation) untranslatedReason = segmentation.untranslated;
  else if (segmentation && text.markdown !== undefined) markdown = withRebuild(text.markdown, segmentation.segments);
  const all = [title, ...(description ? [description] : []), ...(markdown?.segments ?? [])];
  return { title, description, markdown, untranslatedReason, all };
}

/** The page's segments, its markdown parsed on this thread. */
export function segmentPage(text: PageText): PageSegments {
  if (text.markdown === undefined) return pageSegments(text, undefined);
  const breach = checkMarkdownLimits(text.markdown);
  return pageSegments(text, breach ? { untranslated: breach.message } : segmentationOf(text.markdown));
}

/** The page's segments, its markdown segmented by `segmenter`. */
export async function segmentPageWith(text: PageText, segmenter: MarkdownSegmenter): Promise<PageSegments> {
  return pageSegments(text, text.markdown === undefined ? undefined : await segmenter(text.markdown));
}

/** Every page's segments, in order: by `segmenter` when given, else on this thread between other work. */
export async function segmentPages(
  pages: readonly { text: PageText }[],
  signal: AbortSignal,
  segmenter?: MarkdownSegmenter,
): Promise<PageSegments[]> {
  const out: PageSegments[] = [];
  if (!segmenter) {
    for (const page of pages) {
      out.push(segmentPage(page.text));
      // Parsing here is synchronous (a large page takes a second or more): let the server's other work in between pages.
      await new Promise((resolve) => setImmediate(resolve));
      throwIfAborted(signal);
    }
    return out;
  }
  let next = 0;
  let stopped = false;
  const lane = async () => {
    while (!stopped && next < pages.length) {
      throwIfAborted(signal);
      const index = next++;
      out[index] = await segmentPageWith(pages[index]!.text, segmenter);
    }
  };
  const lanes = Array.from({ length: Math.min(SEGMENTER_LANES, pages.length) }, () =>
    lane().catch((err: unknown) => {
      stopped = true;
      throw err;
    }),
  );
  await Promise.all(lanes);
  throwIfAborted(signal);
  return out;
}

/** The page's text with `translations` (aligned with `segments.all`; `undefined`: kept) put back. */
export function assemblePage(
  source: PageText,
  segments: PageSegments,
  translations: readonly (string | undefined)[],
): PageText {
  const out: PageText = { title: rebuildText(source.title, [segments.title], [translations[0]]) };
  let at = 1;
  if (segments.description && source.description !== undefined) {
    out.description = rebuildText(source.description, [segments.description], [translations[at]]);
    at++;
  }
  if (source.markdown !== undefined)
    out.markdown = segments.markdown ? segments.markdown.rebuild(translations.slice(at)) : source.markdown;
  return out;
}
