/**
 * Escaping and URL checks for HTML built from ContentKit, which comes from an integration's script
 * and is untrusted: every string becomes text, and only a few URL schemes become links, images or
 * frames. Isomorphic (WHATWG `URL` exists in Node and browsers).
 */

/** Text or an attribute value, with `& < > " '` as character references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The URL, normalized, when it is absolute http(s); undefined otherwise (`javascript:`, relative, malformed…). */
export function safeHttpUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 8192) return undefined;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
}

// A raster or vector image as a data URL (an <img> never runs a script, an SVG's included).
const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+(;[a-z0-9=.+-]+)*(;base64)?,[a-z0-9+/=%._~-]*$/i;

/** An image source: absolute http(s), or a `data:image/…` URL (at most 2 MB of text). */
export function safeImageUrl(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length <= 2 * 1024 * 1024 && DATA_IMAGE.test(value.trim()))
    return value.trim();
  return safeHttpUrl(value);
}
