/**
 * The published page as the preview frame shows it. The published site refuses to be framed
 * (`frame-ancestors 'none'`, so no `<iframe src>` of it loads), so the preview fetches the page and
 * shows its HTML in a sandboxed `srcdoc` frame: a `<base>` makes its relative addresses (styles,
 * images, links) point at the site, and opens links in a new tab rather than inside the frame.
 */

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `html` (a published page fetched from `url`) with a `<base>` for `url` first in its head. */
export function previewDocument(html: string, url: string): string {
  const base = `<base href="${escapeAttribute(url)}" target="_blank">`;
  const head = /<head(?:\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length);
  // No <head> (a bare message page): the parser puts a leading <base> in the head it makes.
  return base + html;
}

/** The address the preview fetches: the site's published URL, with a visitor token when it needs one. */
export function previewUrl(published: string, visitorToken?: string): string {
  if (!visitorToken) return published;
  const url = new URL(published);
  url.searchParams.set('jwt_token', visitorToken);
  return url.href;
}
