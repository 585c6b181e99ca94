import { describe, expect, it } from 'vitest';
import {
  applyGlossary,
  glossaryMatcher,
  glossaryTerms,
  restoreGlossary,
  type GlossaryEntry,
} from '../../sync-server/translation/glossary';
import { memoryKey } from '../../sync-server/translation/memory';
import { backoffDelay, parseRetryAfter } from '../../sync-server/translation/retry';
import { countWords } from '../../sync-server/translation';

/** Glossary enforcement, word counts, memory keys and backoff: the pure parts of a run. */

const GLOSSARY: GlossaryEntry[] = [
  { translations: { en: 'workspace', fr: 'espace de travail' } },
  { translations: { en: 'workspace settings', fr: 'réglages de l’espace' } },
  { translations: { en: 'Folio' } },
  { translations: { de: 'Arbeitsbereich', fr: 'espace' } },
  { translations: { en: '文档', fr: 'documentation' } },
];

function enforce(text: string, firstNumber = 1) {
  const terms = glossaryTerms(GLOSSARY, 'en', 'fr');
  const applied = applyGlossary(text, firstNumber, terms, glossaryMatcher(terms));
  return { ...applied, restored: restoreGlossary(applied.text, firstNumber, applied.restorations) };
}

describe('glossary', () => {
  it('enforces only entries with a term in the source language, longest first', () => {
    expect(glossaryTerms(GLOSSARY, 'en', 'fr').map((t) => t.source)).toEqual([
      'workspace settings',
      'workspace',
      'Folio',
      '文档',
    ]);
  });

  it('replaces whole words, case-insensitively, with placeholders that restore to the target term', () => {
    const result = enforce('Open the workspace settings of your WORKSPACE in Folio; workspaces stay.');
    expect(result.text).toBe('Open the ⟦1⟧ of your ⟦2⟧ in ⟦3⟧; workspaces stay.');
    expect(result.restorations).toEqual(['réglages de l’espace', 'ESPACE DE TRAVAIL', 'Folio']);
    expect(result.restored).toBe('Open the réglages de l’espace of your ESPACE DE TRAVAIL in Folio; workspaces stay.');
  });

  it('capitalizes the target term where the occurrence starts a sentence, and keeps a term without a target as written', () => {
    const result = enforce('Workspace owners love folio.');
    expect(result.restorations).toEqual(['Espace de travail', 'folio']);
  });

  it('never matches inside a placeholder, numbers its placeholders after the segment’s own', () => {
    const result = enforce('⟦1⟧workspace⟦2⟧ and workspace', 3);
    expect(result.text).toBe('⟦1⟧⟦3⟧⟦2⟧ and ⟦4⟧');
    expect(restoreGlossary('⟦4⟧ et ⟦1⟧⟦3⟧⟦2⟧', 3, result.restorations)).toBe(
      'espace de travail et ⟦1⟧espace de travail⟦2⟧',
    );
  });

  it('matches terms in scripts written without spaces', () => {
    expect(enforce('阅读文档。').restored).toBe('阅读documentation。');
  });
});

describe('countWords', () => {
  it('counts words in spaced and unspaced scripts, not placeholders or punctuation', () => {
    expect(countWords('Hello, world!')).toBe(2);
    expect(countWords('Run ⟦1⟧ now ⟦2⟧')).toBe(2);
    expect(countWords('你好世界')).toBeGreaterThanOrEqual(2);
    expect(countWords('   ')).toBe(0);
  });
});

describe('memoryKey', () => {
  const parts = { engine: 'openai http://x m', from: 'en', to: 'fr', instructions: '', terms: [], text: 'Hello ⟦1⟧' };
  it('is a sha256 hex that changes with every part', () => {
    const key = memoryKey(parts);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(memoryKey({ ...parts })).toBe(key);
    for (const change of [
      { engine: 'openai http://x other' },
      { to: 'de' },
      { instructions: 'Be formal' },
      { terms: [{ source: 'Hello', target: 'Bonjour' }] },
      { text: 'Hello ⟦2⟧' },
    ])
      expect(memoryKey({ ...parts, ...change })).not.toBe(key);
  });
});

describe('backoff', () => {
  const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 1_000 };
  it('doubles with jitter, stays under the cap, and honours Retry-After up to the cap', () => {
    expect(backoffDelay(policy, 1, undefined, () => 0)).toBe(50);
    expect(backoffDelay(policy, 1, undefined, () => 1)).toBe(100);
    expect(backoffDelay(policy, 3, undefined, () => 1)).toBe(400);
    expect(backoffDelay(policy, 10, undefined, () => 1)).toBe(1_000);
    expect(backoffDelay(policy, 1, 700, () => 0)).toBe(700);
    expect(backoffDelay(policy, 1, 60_000, () => 0)).toBe(1_000);
  });

  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('3')).toBe(3_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
