import { languageName } from '../../shared/languages';
import { TranslateError } from './errors';

/**
 * GitBook's language codes as a LibreTranslate server knows them. Most are the same ISO 639-1 codes;
 * these differ, and differ between LibreTranslate versions: a local install names its Argos models
 * `pb` (Brazilian Portuguese), `zh` and `zt` (Chinese, simplified and traditional) and `nb`
 * (Norwegian Bokmål), while libretranslate.com and newer releases say `zh-Hans` and `zh-Hant`.
 * So the run reads the server's /languages and takes the first candidate it lists (a server with
 * only European Portuguese gets `pt` for `pt-br`, close enough to be useful); a server without
 * /languages gets the local-install code.
 */

const CANDIDATES: Record<string, readonly string[]> = {
  'pt-br': ['pb', 'pt-BR', 'pt'],
  zh: ['zh-Hans', 'zh'],
  'zh-tw': ['zh-Hant', 'zt'],
  no: ['nb', 'no'],
};

/** The code of a local LibreTranslate install (its Argos models), used when the server lists no languages. */
const UNLISTED: Record<string, string> = { 'pt-br': 'pb', zh: 'zh', 'zh-tw': 'zt', no: 'nb' };

/** One entry of GET /languages. */
export interface ListedLanguage {
  code: string;
  name?: string;
  /** The codes it translates to (older servers leave this out). */
  targets?: string[];
}

export function parseLanguageList(value: unknown): ListedLanguage[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = value.filter(
    (l): l is ListedLanguage => typeof l === 'object' && l !== null && typeof (l as ListedLanguage).code === 'string',
  );
  return list.length > 0 ? list : undefined;
}

function listedCode(code: string, listed: readonly ListedLanguage[]): ListedLanguage | undefined {
  for (const candidate of CANDIDATES[code] ?? [code]) {
    const found = listed.find((l) => l.code.trim().toLowerCase() === candidate.toLowerCase());
    if (found) return found;
  }
  return undefined;
}

/**
 * LibreTranslate's codes for a run from `from` to `to`; throws ENGINE_REFUSED when the server lists
 * its languages and cannot do this pair.
 */
export function libreTranslatePair(
  from: string,
  to: string,
  listed: readonly ListedLanguage[] | undefined,
  label: string,
): { source: string; target: string } {
  if (!listed) return { source: UNLISTED[from] ?? from, target: UNLISTED[to] ?? to };
  const source = listedCode(from, listed);
  const target = listedCode(to, listed);
  const offered = () => listed.map((l) => l.code.trim()).join(', ');
  const name = (code: string) => `${languageName(code)} (${code})`;
  if (!source || !target)
    throw new TranslateError(
      'ENGINE_REFUSED',
      `${label} does not translate ${source ? 'to' : 'from'} ${name(source ? to : from)}; it offers ${offered()}`,
      false,
    );
  const targets = source.targets?.map((t) => t.trim().toLowerCase());
  if (targets && !targets.includes(target.code.trim().toLowerCase()))
    throw new TranslateError('ENGINE_REFUSED', `${label} does not translate from ${name(from)} to ${name(to)}`, false);
  return { source: source.code.trim(), target: target.code.trim() };
}
