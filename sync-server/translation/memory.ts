import { createHash } from 'node:crypto';
import type { GlossaryTerm } from './glossary';

/**
 * Translation memory: what was already paid for. A run looks every segment up before calling the
 * engine and stores each batch's answers as soon as they pass the structure check, so a resumed or
 * repeated run (or one killed midway) never sends the same text twice.
 */
export interface TranslationMemory {
  /** The stored translations of those keys that have one. */
  get(keys: string[]): Promise<Map<string, string>>;
  put(entries: Map<string, string>): Promise<void>;
}

export interface MemoryKeyParts {
  /** The engine's fingerprint (kind, URL, model). */
  engine: string;
  from: string;
  to: string;
  /** The instructions, when the engine reads them (otherwise changing them changes nothing). */
  instructions: string;
  /** The glossary terms applied to this segment. */
  terms: readonly GlossaryTerm[];
  /** The segment's text as sent, placeholders included. */
  text: string;
}

/**
 * sha256 hex of the parts. Placeholders are numbered per segment and stand for whatever that
 * segment protects, so the same sentence with another link target or code span shares its entry.
 */
export function memoryKey(parts: MemoryKeyParts): string {
  const terms = parts.terms.map((t) => [t.source, t.target ?? null]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
  const material = JSON.stringify([parts.engine, parts.from, parts.to, parts.instructions, terms, parts.text]);
  return createHash('sha256').update(material).digest('hex');
}

/** Keys looked up per `get`: one query of a bounded size, however large the run. */
export const MEMORY_LOOKUP_CHUNK = 500;

/** Looks `keys` up in chunks; a run without memory finds nothing. */
export async function lookUp(
  memory: TranslationMemory | undefined,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!memory) return found;
  for (let i = 0; i < keys.length; i += MEMORY_LOOKUP_CHUNK)
    for (const [key, value] of await memory.get(keys.slice(i, i + MEMORY_LOOKUP_CHUNK))) found.set(key, value);
  return found;
}
