import { describe, expect, it } from 'vitest';
import { alignBlocks, coalesce, renderBlocks, renderedDiff } from '../../renderer/src/diff/rendered';
import { isAbortError, renderedDiffOffThread } from '../../renderer/src/diff/rendered-client';

/** The visible text of an HTML fragment with marks shown as {+added+} and [-removed-] (screen-reader text dropped). */
function marked(html: string): string {
  return html
    .replace(/<span class="diff-sr">[^<]*<\/span>/g, '')
    .replace(/<ins class="diff-added"[^>]*>([^<]*)<\/ins>/g, '{+$1+}')
    .replace(/<del class="diff-removed"[^>]*>([^<]*)<\/del>/g, '[-$1-]');
}

describe('alignBlocks', () => {
  it('keeps unchanged blocks, pairs a changed one and marks added and removed ones whole', () => {
    const before = renderBlocks('# Title\n\nFirst paragraph here.\n\nGone entirely, sadly.\n\nLast one.\n');
    const after = renderBlocks('# Title\n\nFirst paragraph right here.\n\nLast one.\n\n- a new\n- list\n');
    expect(alignBlocks(before, after).map((c) => c.kind)).toEqual(['same', 'changed', 'removed', 'same', 'added']);
  });

  it('does not pair unrelated blocks: a rewritten paragraph is one removed and one added block', () => {
    const changes = alignBlocks(renderBlocks('Apples are red.\n'), renderBlocks('Completely different words now.\n'));
    expect(changes.map((c) => c.kind)).toEqual(['removed', 'added']);
  });
});

describe('renderedDiff', () => {
  it('marks exactly the changed word with accessible ins/del text', () => {
    const diff = renderedDiff(
      'The quick brown fox jumps over the lazy dog.\n',
      'The quick brown fox jumps over the lazy cat.\n',
    );
    expect(diff.html).toContain(
      '<del class="diff-removed" data-diff="removed" title="Removed"><span class="diff-sr">[removed: </span>dog<span class="diff-sr">]</span></del>',
    );
    expect(marked(diff.html)).toContain('<p>The quick brown fox jumps over the lazy [-dog-]{+cat+}.</p>');
    expect(diff.stats).toEqual({ added: 1, removed: 1 });
    expect(diff.changedBlocks).toBe(1);
  });

  it('keeps the formatting around the marks: headings, emphasis, table cells, code', () => {
    const before =
      '## Install the tool\n\nRun it *now* please.\n\n| a | b |\n| - | - |\n| one | two |\n\n```sh\nnpm i folio\n```\n';
    const after =
      '## Install the CLI\n\nRun it *today* please.\n\n| a | b |\n| - | - |\n| one | three |\n\n```sh\nnpm i folio --save\n```\n';
    const html = marked(renderedDiff(before, after).html);
    expect(html).toContain('<h2>Install the [-tool-]{+CLI+}</h2>');
    expect(html).toContain('<p>Run it <em>[-now-]{+today+}</em> please.</p>');
    expect(html).toContain('<td>[-two-]{+three+}</td>');
    expect(html).toContain('npm i folio{+ --save+}');
    expect(html).toMatch(/<pre><code class="language-sh">/);
  });

  it('marks words inside a GitBook hint, which renders as its box', () => {
    const html = marked(
      renderedDiff(
        '{% hint style="warning" %}\nBack up your data first.\n{% endhint %}\n',
        '{% hint style="warning" %}\nBack up your files first.\n{% endhint %}\n',
      ).html,
    );
    expect(html).toContain('folio-hint folio-hint-warning');
    expect(html).toContain('Back up your [-data-]{+files+} first.');
  });

  it('a removed word between table rows goes into a cell, never directly into the row', () => {
    const html = renderedDiff('| h |\n| - |\n| x |\n| gone |\n', '| h |\n| - |\n| x |\n').html;
    expect(html).not.toMatch(/<\/tr>\s*<del/);
    expect(html).not.toMatch(/<tbody>\s*<del/);
    expect(html).toContain('gone');
  });

  it('shows whole added and removed blocks, and a formatting-only change as removed + added', () => {
    const diff = renderedDiff(
      'Keep.\n\nOld words here.\n\nPlain text.\n',
      'Keep.\n\n**Plain** text.\n\n> A new quote\n',
    );
    expect(diff.html).toContain('<del class="diff-block diff-block-removed" data-diff="block-removed"');
    expect(diff.html).toContain('<ins class="diff-block diff-block-added" data-diff="block-added"');
    expect(diff.html).toContain('<blockquote>');
    expect(diff.stats).toEqual({ added: 5, removed: 5 });
  });

  it('groups consecutive added blocks into one marked passage', () => {
    const html = renderedDiff('Intro.\n', 'Intro.\n\n## New section\n\nIts first paragraph.\n').html;
    expect(html.match(/<ins class="diff-block/g)).toHaveLength(1);
    expect(html).toMatch(
      /<ins class="diff-block diff-block-added"[^>]*>.*<h2>New section<\/h2>.*<p>Its first paragraph.<\/p>.*<\/ins>/s,
    );
  });

  it('never lets raw HTML from the page through', () => {
    const html = renderedDiff(
      'Safe.\n',
      'Safe.\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[x](javascript:alert(1))\n',
    ).html;
    expect(html).not.toMatch(/<script|onerror|javascript:/i);
  });

  it('diffs a 50,000-character page with a few edits, marking only those', () => {
    const para = (i: number) => `Paragraph ${i} says something about topic number ${i} in plain words.`;
    const before = Array.from({ length: 760 }, (_, i) => para(i)).join('\n\n');
    const after = before.replace('topic number 10 ', 'subject number 10 ').replace(para(500), '');
    expect(before.length).toBeGreaterThan(50_000);
    const diff = renderedDiff(before, after);
    expect(diff.changedBlocks).toBe(2);
    expect(diff.stats).toEqual({ added: 1, removed: 12 });
  });
});

describe('coalesce', () => {
  it('reads a replaced phrase as one removed run and one added run', () => {
    expect(
      coalesce([
        { kind: 'same', text: 'with the ' },
        { kind: 'removed', text: 'command' },
        { kind: 'added', text: 'Folio' },
        { kind: 'same', text: ' ' },
        { kind: 'removed', text: 'line tool' },
        { kind: 'added', text: 'CLI' },
        { kind: 'same', text: '.' },
      ]),
    ).toEqual([
      { kind: 'same', text: 'with the ' },
      { kind: 'removed', text: 'command line tool' },
      { kind: 'added', text: 'Folio CLI' },
      { kind: 'same', text: '.' },
    ]);
  });
});

describe('renderedDiffOffThread', () => {
  const before = '# Guide\n\nThe quick brown fox jumps over the lazy dog.\n\n- one\n- two\n';
  const after = '# Guide\n\nThe quick brown fox jumps over the lazy cat.\n\n- one\n- three\n';

  it('computes the same diff on the main thread where there is no Worker (this test environment)', async () => {
    expect(typeof Worker).toBe('undefined');
    expect(await renderedDiffOffThread(before, after)).toEqual(renderedDiff(before, after));
  });

  it('rejects a diff given up before it was asked for with an AbortError', async () => {
    const abort = new AbortController();
    abort.abort();
    const given = renderedDiffOffThread(before, after, { signal: abort.signal });
    await expect(given).rejects.toSatisfy(isAbortError);
  });
});
