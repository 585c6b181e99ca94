import { createHash } from 'node:crypto';
import { badRequest } from '../../http/errors';
import type { AssetBytes } from '../../store/integrations';

/**
 * The images of a publish (GitBook's base64 `icon` and `previewImages`): decoded, bounded, and
 * recognised by their first bytes. Only raster formats are taken: they are served without a token
 * from the API's origin (the web app's origin), where an SVG or HTML file would be a page that
 * runs script (stored XSS), whatever type it claimed.
 */

/** The limits of GitBook's CLI (`gitbook publish` refuses larger files). */
export const MAX_ICON_BYTES = 256 * 1024;
export const MAX_PREVIEW_BYTES = 1024 * 1024;

/** Base64 characters for `bytes` bytes (what the body schema allows, before decoding). */
export const base64Length = (bytes: number) => Math.ceil(bytes / 3) * 4;

const SIGNATURES: { type: string; ext: string; test: (b: Buffer) => boolean }[] = [
  {
    type: 'image/png',
    ext: 'png',
    test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  },
  { type: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', ext: 'gif', test: (b) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')) },
  {
    type: 'image/webp',
    ext: 'webp',
    test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
];

/** The file extension of a stored image type (the type is always one of SIGNATURES'). */
export const extensionOf = (contentType: string) => SIGNATURES.find((s) => s.type === contentType)?.ext ?? 'bin';

/** The type of a served image named `<sha256>.<ext>`, or undefined for any other name. */
export function parseAssetFile(file: string): { sha256: string; ext: string } | undefined {
  const m = /^([0-9a-f]{64})\.([a-z]+)$/.exec(file);
  return m ? { sha256: m[1]!, ext: m[2]! } : undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes one image of the body; `field` names it in the 400 (e.g. `previewImages[1]`). */
export function decodeImage(field: string, base64: string, maxBytes: number): AssetBytes {
  // Base64 from files may be wrapped in lines; a data: URL prefix is not base64 and says so below.
  const text = base64.replace(/\s+/g, '');
  if (text.length === 0 || text.length % 4 !== 0 || !BASE64.test(text))
    throw badRequest(`${field}: not base64 (send the image file's bytes in base64, without a data: prefix)`);
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length > maxBytes) throw badRequest(`${field}: the image is larger than ${maxBytes / 1024} KiB`);
  const kind = SIGNATURES.find((s) => s.test(bytes));
  if (!kind) throw badRequest(`${field}: not a PNG, JPEG, GIF or WebP image`);
  return { sha256: createHash('sha256').update(bytes).digest('hex'), contentType: kind.type, bytes };
}
