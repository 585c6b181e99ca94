import { characterEntities } from 'character-entities';
import { PLACEHOLDER } from '../../shared/markdown/translation/placeholders';

/**
 * How segments travel to LibreTranslate: as HTML (`format: "html"`), each placeholder inside
 * `<span translate="no">`, which LibreTranslate's HTML translation (translatehtml) leaves untouched,
 * and the prose HTML-escaped so a `<` of the source is never read as a tag. On the way back the spans
 * become placeholders again, any other tag is dropped and character references are decoded.
 * LibreTranslate collapses whitespace in HTML, so soft line breaks come back as spaces (the markdown
 * renders the same); everything that needs its own line is a placeholder.
 */

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function toEngineHtml(text: string): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    out += escapeHtml(text.slice(at, m.index)) + `<span translate="no">${m[0]}</span>`;
    at = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(at));
}

function decodeReference(reference: string, body: string): string {
  if (body.startsWith('#')) {
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : reference;
  }
  return Object.hasOwn(characterEntities, body) ? characterEntities[body]! : reference;
}

export function fromEngineHtml(html: string): string {
  return html
    .replace(/<span\b[^>]*>\s*(⟦\d+⟧)\s*<\/span\s*>/gi, '$1')
    .replace(/<\/?[a-z][^>]*>/gi, '')
    .replace(/&(#\d{1,7}|#[xX][\da-fA-F]{1,6}|[A-Za-z][A-Za-z\d]{1,31});/g, decodeReference);
}
