/**
 * How an uploaded file is served. Downloads come from the API's origin — the
 * origin of the web app at /app/ — so a file must never act as a page or a
 * script of that origin (stored XSS through an uploaded HTML or SVG file, or
 * an uploaded .js admitted by the app's `script-src 'self'`).
 */

/** Types a browser shows inline without running anything: raster images (not SVG), PDF, plain text. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)|application\/pdf|text\/plain)$/i;

/**
 * Types a browser would run or apply if a page of our origin loaded them (a
 * script, worker, style sheet, XSLT) or render as a document (HTML, XHTML,
 * SVG, XML). They are labelled application/octet-stream: with `nosniff`,
 * browsers then refuse to use them as scripts or styles at all.
 */
const ACTIVE = /^text\/(html|css)$|script|xml|xsl/i;

/** The response headers of a download of `name`, stored as `contentType`. */
export function downloadHeaders(contentType: string, name: string): Record<string, string> {
  const inline = INLINE.test(contentType);
  const servedAs = inline
    ? contentType.toLowerCase() === 'text/plain'
      ? 'text/plain; charset=utf-8'
      : contentType
    : ACTIVE.test(contentType)
      ? 'application/octet-stream'
      : contentType;
  // RFC 8187 ext-value: encodeURIComponent leaves ' ( ) * as they are, which attr-char does not allow.
  const filename = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return {
    'content-type': servedAs,
    // Anything not known to be inert is saved, never displayed in our origin.
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${filename}`,
    'x-content-type-options': 'nosniff',
    // Should a browser render it anyway, it runs in an opaque origin with nothing allowed.
    'content-security-policy': "sandbox; default-src 'none'",
  };
}
