import { describe, expect, it } from 'vitest';
import { characterEntities } from 'character-entities';
import { decodeNamedCharacterReference } from 'decode-named-character-reference';

/**
 * The rendered diff's worker has no DOM, yet Vite bundles the browser build of
 * decode-named-character-reference (micromark's `&name;` decoder), which decodes
 * through `document.createElement('i')`. renderer/src/diff/worker-dom.ts stands in
 * for that element: the browser build, loaded over it, must decode every named
 * reference as the package's table build does (the one Node uses), so the worker's
 * diff is the main thread's.
 */

describe('worker-dom', () => {
  it('lets the DOM build of the entity decoder load without a document and decode like the table build', async () => {
    expect(typeof document).toBe('undefined');
    await import('../../renderer/src/diff/worker-dom');
    expect(typeof document).toBe('object');
    // The browser build by path (the package's exports give Node the table build).
    const dom = await import('../../node_modules/decode-named-character-reference/index.dom.js');
    const names = [...Object.keys(characterEntities), 'notit', 'semi', 'AMP', 'amp', 'nope', 'x', '', '#123'];
    const differ = names.filter((n) => dom.decodeNamedCharacterReference(n) !== decodeNamedCharacterReference(n));
    expect(differ).toEqual([]);
    expect(dom.decodeNamedCharacterReference('eacute')).toBe('é');
    expect(dom.decodeNamedCharacterReference('notit')).toBe(false);
  });
});
