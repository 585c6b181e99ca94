/**
 * Rewrites the targets of a markdown document's inline links and images (`[t](href)`,
 * `![a](href)`) outside code (fenced blocks and code spans are kept verbatim): the importer's
 * way to point links between imported files at the batch refs of their pages.
 */

// The text excludes '[' so that attempts never rescan the same characters (linear on "[[[[…").
const INLINE_LINK = /(!?)\[((?:\\.|[^[\]\\])*)\]\(\s*(<[^>\n]*>|[^\s)]+)((?:\s+"[^"\n]*")?)\s*\)/g;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const CODE_SPAN = /(`+)[\s\S]*?\1/g;

/** `rewrite(href)` answers the new target, or undefined to keep the link as it is. */
export function rewriteMarkdownLinks(markdown: string, rewrite: (href: string) => string | undefined): string {
  const prose = (text: string) =>
    text.replace(INLINE_LINK, (whole, bang: string, label: string, rawHref: string, title: string) => {
      const href = rawHref.startsWith('<') ? rawHref.slice(1, -1) : rawHref;
      const to = rewrite(href);
      return to === undefined ? whole : `${bang}[${label}](${to}${title})`;
    });
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
        rewritten += prose(line.slice(last, m.index)) + m[0];
        last = m.index + m[0].length;
      }
      out.push(rewritten + prose(line.slice(last)));
    }
  }
  return out.join('\n');
}
