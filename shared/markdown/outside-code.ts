/**
 * Markdown rewriting that must not touch code: fenced code blocks and inline code spans are kept
 * verbatim, everything else (the prose) goes through `fn` line by line. Used where links are
 * rewritten (REST authoring's relative links, the importer's links between imported files).
 */

/**
 * An inline link or image, `[text](href "title")` / `![alt](<href>)`: groups bang, text, href (maybe
 * in <>), title. The text excludes '[' so that attempts never rescan the same characters (linear
 * on "[[[[…").
 */
export const INLINE_LINK = /(!?)\[((?:\\.|[^[\]\\])*)\]\(\s*(<[^>\n]*>|[^\s)]+)((?:\s+"[^"\n]*")?)\s*\)/g;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)[\s\S]*?\1/g;

/** Applies `fn` to the prose of `markdown` only. */
export function outsideCode(markdown: string, fn: (prose: string) => string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      out.push(line);
    } else if (marker) {
      fence = marker;
      out.push(line);
    } else {
      let last = 0;
      let rewritten = '';
      for (const m of line.matchAll(CODE_SPAN)) {
        rewritten += fn(line.slice(last, m.index)) + m[0];
        last = m.index + m[0].length;
      }
      out.push(rewritten + fn(line.slice(last)));
    }
  }
  return out.join('\n');
}
