/**
 * The content languages GitBook knows (its `TranslationLanguage`, also a space's `language`), with
 * their names in English and in the language itself: the server validates against the codes, the
 * app's pickers and the published site's language switcher show the names.
 */
export const LANGUAGE_NAMES = {
  en: ['English', 'English'],
  fr: ['French', 'Français'],
  de: ['German', 'Deutsch'],
  es: ['Spanish', 'Español'],
  it: ['Italian', 'Italiano'],
  pt: ['Portuguese', 'Português'],
  'pt-br': ['Portuguese (Brazil)', 'Português (Brasil)'],
  ru: ['Russian', 'Русский'],
  ja: ['Japanese', '日本語'],
  zh: ['Chinese (Simplified)', '简体中文'],
  'zh-tw': ['Chinese (Traditional)', '繁體中文'],
  yue: ['Cantonese', '粵語'],
  ko: ['Korean', '한국어'],
  ar: ['Arabic', 'العربية'],
  hi: ['Hindi', 'हिन्दी'],
  nl: ['Dutch', 'Nederlands'],
  pl: ['Polish', 'Polski'],
  tr: ['Turkish', 'Türkçe'],
  sv: ['Swedish', 'Svenska'],
  no: ['Norwegian', 'Norsk'],
  da: ['Danish', 'Dansk'],
  fi: ['Finnish', 'Suomi'],
  el: ['Greek', 'Ελληνικά'],
  cs: ['Czech', 'Čeština'],
  hu: ['Hungarian', 'Magyar'],
  ro: ['Romanian', 'Română'],
  th: ['Thai', 'ไทย'],
  vi: ['Vietnamese', 'Tiếng Việt'],
  id: ['Indonesian', 'Bahasa Indonesia'],
  ms: ['Malay', 'Bahasa Melayu'],
  he: ['Hebrew', 'עברית'],
  uk: ['Ukrainian', 'Українська'],
  sk: ['Slovak', 'Slovenčina'],
  bg: ['Bulgarian', 'Български'],
  hr: ['Croatian', 'Hrvatski'],
  lt: ['Lithuanian', 'Lietuvių'],
  lv: ['Latvian', 'Latviešu'],
  et: ['Estonian', 'Eesti'],
  sl: ['Slovenian', 'Slovenščina'],
} as const satisfies Record<string, readonly [english: string, native: string]>;

export type LanguageCode = keyof typeof LANGUAGE_NAMES;

/** Every code, in GitBook's order. */
export const LANGUAGES = Object.keys(LANGUAGE_NAMES) as LanguageCode[];

export function isLanguage(value: unknown): value is LanguageCode {
  return typeof value === 'string' && Object.hasOwn(LANGUAGE_NAMES, value);
}

/** The language's name in English ("French"), or the code when unknown. */
export function languageName(code: string): string {
  return isLanguage(code) ? LANGUAGE_NAMES[code][0] : code;
}

/** The language's own name ("Français"), for a switcher readers of that language recognise. */
export function nativeLanguageName(code: string): string {
  return isLanguage(code) ? LANGUAGE_NAMES[code][1] : code;
}

/** The BCP 47 tag for `lang` and `hreflang` attributes ("pt-BR", "zh-Hant"). */
export function languageTag(code: string): string {
  const tags: Record<string, string> = { 'pt-br': 'pt-BR', zh: 'zh-Hans', 'zh-tw': 'zh-Hant' };
  return tags[code] ?? code;
}
