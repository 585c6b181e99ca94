/**
 * Images in the page source: `![alt](src "title")` and `<img src="…" alt="…" width="…">`.
 * Resizing writes the width back as an HTML `<img>` tag (GitHub, GitBook and
 * the preview's sanitizer all keep `width` on `<img>`; markdown has no size
 * syntax), so `![Diagram](/files/abc)` resized to 320 px becomes
 * `<img src="/files/abc" alt="Diagram" width="320">`. Pure and unit-tested.
 */

export interface ImageRef {
  src: string;
  alt: string;
  width?: number;
}

const MD_IMAGE = /^!\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)$/;
const HTML_IMG = /<img\b[^>]*>/gi;
const ATTR = /([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g;

/** Parses `![alt](src)`; undefined if `text` is not exactly one markdown image. */
export function parseMarkdownImage(text: string): ImageRef | undefined {
  const m = MD_IMAGE.exec(text);
  return m ? { alt: m[1]!, src: m[2]! } : undefined;
}

/** The `<img>` tags in a piece of HTML, with their offsets in it. */
export function findHtmlImages(html: string): Array<ImageRef & { from: number; to: number }> {
  const out: Array<ImageRef & { from: number; to: number }> = [];
  for (const m of html.matchAll(HTML_IMG)) {
    const attrs: Record<string, string> = {};
    for (const a of m[0].matchAll(ATTR)) attrs[a[1]!.toLowerCase()] = a[2] ?? a[3] ?? a[4] ?? '';
    if (!attrs.src) continue;
    const width = Number.parseInt(attrs.width ?? '', 10);
    out.push({
      src: attrs.src,
      alt: attrs.alt ?? '',
      ...(width > 0 ? { width } : {}),
      from: m.index,
      to: m.index + m[0].length,
    });
  }
  return out;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The source of an image resized to `width` CSS pixels. */
export function sizedImageSource(image: ImageRef, width: number): string {
  return `<img src="${escapeAttr(image.src)}" alt="${escapeAttr(image.alt)}" width="${Math.round(width)}">`;
}

/** A URL the editor may load as an image or open as a link (no `javascript:` and the like). */
export function safeUrl(url: string): string | undefined {
  const trimmed = url.trim();
  if (/^(https?:|blob:|data:image\/)/i.test(trimmed)) return trimmed;
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return undefined; // any other scheme
  return trimmed;
}

/** The id of a `/files/<id>` reference (uploaded files), or undefined. */
export function fileIdOf(src: string): string | undefined {
  return /^\/files\/([A-Za-z0-9_-]{1,64})$/.exec(src)?.[1];
}

/** The id of a `/pages/<id>` link (another page of the space), or undefined. */
export function pageIdOf(href: string): string | undefined {
  return /^\/pages\/([A-Za-z0-9_-]{1,64})(#.*)?$/.exec(href)?.[1];
}
