import { withoutPlaceholders } from '../../shared/markdown/translation/placeholders';

/**
 * Words of a text, for the translation's statistics. Intl.Segmenter splits by the Unicode word rules
 * with ICU's dictionaries, so Chinese, Japanese and Thai (written without spaces) count words, not
 * runs of characters; placeholders and punctuation do not count.
 */

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

export function countWords(text: string): number {
  let words = 0;
  for (const part of segmenter.segment(withoutPlaceholders(text))) if (part.isWordLike) words++;
  return words;
}
