/**
 * Text as lines that remember their own line ending, so that a file can be taken apart and put
 * back together byte for byte: CRLF files stay CRLF, a mixed file keeps each line's ending, and a
 * file without a trailing newline keeps lacking one. Split on '\n' like `String.split`, so a text
 * of n newlines has n + 1 lines and the last one (possibly empty) has no ending.
 */

export type Eol = '\n' | '\r\n';

export interface Line {
  text: string;
  /** The ending after this line; undefined for the last line, or for a new line (the file's style is used). */
  eol?: Eol;
}

export function splitLines(text: string): Line[] {
  const parts = text.split('\n');
  return parts.map((part, i) => {
    if (i === parts.length - 1) return { text: part };
    return part.endsWith('\r') ? { text: part.slice(0, -1), eol: '\r\n' } : { text: part, eol: '\n' };
  });
}

/** Joins lines back; a line without its own ending (new, or formerly last) gets `eol`. */
export function joinLines(lines: readonly Line[], eol: Eol): string {
  let out = '';
  lines.forEach((line, i) => {
    out += line.text;
    if (i < lines.length - 1) out += line.eol ?? eol;
  });
  return out;
}

/** The ending most lines of `lines` use ('\n' when there are none). */
export function dominantEol(lines: readonly Line[]): Eol {
  let crlf = 0;
  let lf = 0;
  for (const line of lines) {
    if (line.eol === '\r\n') crlf++;
    else if (line.eol === '\n') lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** The lines' texts (what a stored body is made of: Folio keeps bodies with '\n' only). */
export const textsOf = (lines: readonly Line[]): string[] => lines.map((l) => l.text);

const BOM = '\uFEFF';

/** Splits off a byte order mark, which is kept verbatim but never read as content. */
export function peelBom(text: string): { bom: string; rest: string } {
  return text.startsWith(BOM) ? { bom: BOM, rest: text.slice(1) } : { bom: '', rest: text };
}

// ignoreBOM keeps a BOM in the text (the default would drop it, and the file would change).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

export const utf8 = (bytes: Uint8Array): string => decoder.decode(bytes);
export const bytesOf = (text: string): Uint8Array => encoder.encode(text);

/** Whether two byte arrays hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
