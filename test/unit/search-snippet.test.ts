import { describe, expect, it } from 'vitest';
import { fold, hasMark, highlight, queryTerms, snippet, type Segment } from '../../renderer/src/search/snippet';

/** Segments written as text with [marks], to compare them at a glance. */
const show = (segments: Segment[]) => segments.map((s) => (s.mark ? `[${s.text}]` : s.text)).join('');

describe('queryTerms', () => {
  it('folds case and accents, drops operators and excluded words, adds stems of long words', () => {
    expect(queryTerms('Café OR "Deploy Servers" -draft')).toEqual(['cafe', 'deploy', 'servers', 'server']);
    expect(queryTerms('running')).toEqual(['running', 'runn']);
    expect(queryTerms('  ')).toEqual([]);
  });
});

describe('highlight', () => {
  it('marks every word that starts with a term, whatever its case or accents', () => {
    expect(show(highlight('Deploying the CAFÉ server, then servers.', queryTerms('cafe deploy server')))).toBe(
      '[Deploying] the [CAFÉ] [server], then [servers].',
    );
  });

  it('does not mark a term inside a word', () => {
    expect(show(highlight('redeploy deploy', ['deploy']))).toBe('redeploy [deploy]');
    expect(hasMark(highlight('nothing here', ['deploy']))).toBe(false);
  });
});

describe('snippet', () => {
  const long = `${'Lorem ipsum dolor sit amet. '.repeat(12)}The quokka lives on Rottnest Island. ${'Consectetur adipiscing elit. '.repeat(12)}`;

  it('shows a window around the first match, cut at word boundaries, with ellipses', () => {
    const text = show(snippet(long, ['quokka'], 120));
    expect(text).toMatch(/^…[A-Za-z]/);
    expect(text).toMatch(/[a-z.]…$/);
    expect(text).toContain('The [quokka] lives on Rottnest Island.');
    expect(text.length).toBeLessThanOrEqual(120 + 4 + 2);
  });

  it('starts at the beginning when nothing in the body matches (a title match)', () => {
    const text = show(snippet(long, ['zebra'], 60));
    expect(text.startsWith('Lorem ipsum')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
  });

  it('keeps a short body whole, on one line', () => {
    expect(show(snippet('First line\nsecond   line with quokka', ['quokka']))).toBe(
      'First line second line with [quokka]',
    );
  });

  it('ends at the body’s end without an ellipsis when the match is near the end', () => {
    const text = show(snippet(`${'word '.repeat(60)}final quokka`, ['quokka'], 80));
    expect(text.endsWith('final [quokka]')).toBe(true);
    expect(text.startsWith('…')).toBe(true);
  });
});

describe('fold', () => {
  it('lowercases and strips combining accents', () => {
    expect(fold('Ÿésterday CRÈME')).toBe('yesterday creme');
  });
});
