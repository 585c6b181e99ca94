import { checkMarkdownLimits } from '../../shared/markdown/limits';
import { MarkdownTooComplexError } from '../../shared/markdown/parse';
import { segmentMarkdown, type MarkdownSegments } from './markdown-segments';
import { buildSegment, rebuildText, type Segment, type Span } from './segment';

/**
 * A page's text as segments (title, description, markdown) and back. Titles and descriptions are
 * plain text: only a literal ⟦ or ⟧ is protected, and a title stays on one line.
 */

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

export function segmentPage(text: PageText): PageSegments {
  const title = plainSegment(text.title, true);
  const description = text.description ? plainSegment(text.description, false) : undefined;
  let markdown: MarkdownSegments | undefined;
  let untranslatedReason: string | undefined;
  if (text.markdown !== undefined) {
    const breach = checkMarkdownLimits(text.markdown);
    if (breach) untranslatedReason = breach.message;
    else
      try {
        markdown = segmentMarkdown(text.markdown);
      } catch (err) {
        if (!(err instanceof MarkdownTooComplexError)) throw err;
        untranslatedReason = err.message;
      }
  }
  const all = [title, ...(description ? [description] : []), ...(markdown?.segments ?? [])];
  return { title, description, markdown, untranslatedReason, all };
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
