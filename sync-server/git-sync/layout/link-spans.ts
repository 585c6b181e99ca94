import { INLINE_LINK, outsideCode } from '../../../shared/markdown/outside-code';

/**
 * Where a page's lines name other pages and files: inline links and images (`[t](href)`,
 * `![a](<href>)`) and, when asked, the `src`/`href`/`url` attributes of HTML and of GitBook's
 * block tags (`<img src="…">`, `{% content-ref url="…" %}`, `{% file src="…" %}`). Fenced code
 * and code spans are never looked into. Rewriting replaces the target alone, so a link's text,
 * title and spelling around it stay as written.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATTRIBUTE = /(\b(?:src|href|url)\s*=\s*")([^"\n]*)(")/g;

/** What a rewrite is asked about one target: its href and the line it is on. */
export type HrefRewrite = (href: string, line: number) => string | undefined;

/** Which lines are inside fenced code blocks (their fence lines included). */
export function fencedLines(lines: readonly string[]): boolean[] {
  let fence: string | undefined;
  return lines.map((line) => {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return true;
    }
    if (marker) {
      fence = marker;
      return true;
    }
    return false;
  });
}

function rewriteProse(prose: string, rewrite: (href: string) => string | undefined, attributes: boolean): string {
  let out = prose.replace(INLINE_LINK, (whole, bang: string, label: string, rawHref: string) => {
    const angle = rawHref.startsWith('<');
    const to = rewrite(angle ? rawHref.slice(1, -1) : rawHref);
    if (to === undefined) return whole;
    const at = whole.indexOf(rawHref, bang.length + label.length + 3);
    return whole.slice(0, at) + (angle ? `<${to}>` : to) + whole.slice(at + rawHref.length);
  });
  if (attributes)
    out = out.replace(ATTRIBUTE, (whole, before: string, href: string, after: string) => {
      const to = rewrite(href);
      return to === undefined ? whole : before + to + after;
    });
  return out;
}

/**
 * `lines` with the targets `rewrite` changes replaced, outside code. `only(i)` limits the work to
 * some lines (fences are still tracked over all of them); `attributes` includes HTML and block-tag
 * attributes.
 */
export function rewriteHrefs(
  lines: readonly string[],
  rewrite: HrefRewrite,
  options: { attributes: boolean; only?: (line: number) => boolean },
): string[] {
  const fenced = fencedLines(lines);
  return lines.map((line, i) => {
    if (fenced[i] || (options.only && !options.only(i))) return line;
    if (!line.includes('](') && !(options.attributes && line.includes('="'))) return line;
    return outsideCode(line, (prose) => rewriteProse(prose, (href) => rewrite(href, i), options.attributes));
  });
}
