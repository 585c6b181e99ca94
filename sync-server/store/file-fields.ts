/**
 * What a file's name and content type may be, so that its download link
 * (`/files/<sha256>/<name>?type=<contentType>…`, see file-storage.ts) always
 * works: the name is one URL path segment no client rewrites, the type is one
 * the download route accepts.
 */

/**
 * A media type without parameters (RFC 6838 restricted names): what a
 * download link's `type` carries and the download route accepts
 * (api/storage/schemas.ts `MimeType` is the same pattern).
 */
export const MEDIA_TYPE_ESSENCE = /^[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]{0,126}\/[a-zA-Z0-9][a-zA-Z0-9!#$&^_.+-]{0,126}$/;

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
// A quoted string: no quote, backslash or control character unescaped. The two alternatives never
// start with the same character and parameters are separated by a required `;`: no backtracking blow-up.
const QUOTED = '"(?:[^"\\\\\\u0000-\\u001f\\u007f]|\\\\[^\\u0000-\\u001f\\u007f])*"';
/** `type/subtype` then any `; name=value` parameters (RFC 9110 media-type, spaces as whitespace). */
const MEDIA_TYPE = new RegExp(`^([^;\\s]+?)((?: *; *${TOKEN}=(?:${TOKEN}|${QUOTED}))*) *$`);

/** Control characters (C0, DEL and C1): a CR/LF in a stored value ends up in a header or a URL. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A UTF-16 surrogate without its pair: not text, and encodeURIComponent throws on it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What is wrong with `value` as a file's content type, or undefined when it is
 * a media type; `essence` is what is stored (parameters such as `charset` are
 * dropped: downloads serve each type with the parameters it needs).
 */
export function checkContentType(value: string): { problem: string } | { essence: string } {
  if (CONTROL.test(value)) return { problem: 'must not contain control characters (such as CR or LF)' };
  const essence = MEDIA_TYPE.exec(value)?.[1];
  if (essence === undefined || !MEDIA_TYPE_ESSENCE.test(essence))
    return { problem: 'must be a media type such as image/png (type/subtype, optionally followed by ; parameters)' };
  return { essence };
}

/** The stored form of a content type a fetched URL answered with, or undefined if it is not a media type. */
export function contentTypeEssence(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const checked = checkContentType(value.trim());
  return 'essence' in checked ? checked.essence : undefined;
}

/** Longest file name (UTF-16 code units): what the download route takes. */
export const MAX_FILE_NAME = 255;

/** What is wrong with `name` as a file's name, or undefined when it is fine. */
export function fileNameProblem(name: string): string | undefined {
  if (CONTROL.test(name)) return 'must not contain control characters (such as CR or LF)';
  if (LONE_SURROGATE.test(name)) return 'must be valid Unicode text';
  if (/[/\\]/.test(name)) return 'must not contain / or \\';
  // encodeURIComponent leaves dots alone, and URL parsers drop a path segment "." or ".." (the link would change).
  if (name === '.' || name === '..') return 'must not be "." or ".."';
  return undefined;
}

/**
 * The name a download link carries for `name`: itself when valid, else a
 * similar one that is (for files stored before names were checked). The name
 * in a link only labels the download; the signature does not cover it.
 */
export function downloadName(name: string): string {
  if (fileNameProblem(name) === undefined && name !== '' && name.length <= MAX_FILE_NAME) return name;
  const cleaned = name
    .slice(0, MAX_FILE_NAME)
    .replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD')
    .replace(new RegExp(CONTROL.source, 'g'), '')
    .replace(/[/\\]/g, '_');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

/** The type a download link carries for a stored `contentType` (older entries may hold parameters or worse). */
export function downloadType(contentType: string): string {
  if (MEDIA_TYPE_ESSENCE.test(contentType)) return contentType;
  return contentTypeEssence(contentType) ?? 'application/octet-stream';
}
