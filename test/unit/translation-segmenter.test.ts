import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromEngineHtml, toEngineHtml } from '../../sync-server/translation/libretranslate-html';
import { segmentMarkdown } from '../../shared/markdown/translation/markdown-segments';
import { hasProse } from '../../shared/markdown/translation/placeholders';
import { fakeTranslate, RICH_MARKDOWN, verbatimParts } from '../helpers/translate-engines';

/**
 * The markdown segmenter: a rebuild with the segments' own text gives the input back byte for byte,
 * and a rebuild with translated segments changes the prose only (code, link targets, block tags,
 * HTML, front matter, math and structure come out byte-exact).
 */

const translateAll = (markdown: string) => {
  const { segments, rebuild } = segmentMarkdown(markdown);
  return rebuild(segments.map((s) => fakeTranslate(s.text, 'fr')));
};

describe('segmentMarkdown', () => {
  it('gives the input back byte for byte when every segment is its own translation', () => {
    const { segments, rebuild } = segmentMarkdown(RICH_MARKDOWN);
    expect(segments.length).toBeGreaterThan(20);
    expect(rebuild(segments.map((s) => s.text))).toBe(RICH_MARKDOWN);
    expect(rebuild([])).toBe(RICH_MARKDOWN);
  });

  it('translates the prose and keeps code, link targets, tags, HTML, front matter and math byte-exact', () => {
    const output = translateAll(RICH_MARKDOWN);
    expect(output).not.toBe(RICH_MARKDOWN);
    expect(verbatimParts(output)).toEqual(verbatimParts(RICH_MARKDOWN));
    expect(output.split('\n')).toHaveLength(RICH_MARKDOWN.split('\n').length);
    expect(output.startsWith('---\ndescription: Front matter stays as it is\nlayout: wide\n---\n')).toBe(true);
    for (const prose of [
      '# [fr]Getting [fr]started [fr]with [fr]the *[fr]workspace* {#start}',
      '[fr]Welcome [fr]to [fr]the [fr]docs. [fr]Read [[fr]the [fr]guide](/pages/abc123 "Guide title")',
      "| `id` | [fr]The [fr]page'[fr]s [fr]id \\| [fr]with [fr]an [fr]escaped [fr]pipe |",
      '  - [fr]Nested [fr]item [fr]with <https://auto.example.com> [fr]and https://bare.example.com',
      '1. [fr]Ordered *[fr]emphasis* [fr]and ~~[fr]struck~~ [fr]and **[[fr]bold [fr]link](/pages/def)** [fr]text',
      '[[fr]Next [fr]page](/pages/xyz)',
      '[fr]Caption [fr]of [fr]the [fr]embed',
      '[^1]: [fr]The [fr]footnote [fr]text.',
      '[fr]Escaped \\*[fr]stars\\* [fr]and [fr]a [fr]literal ⟦9⟧ [fr]bracket.',
    ])
      expect(output).toContain(prose);
    // Kept whole: the OpenAPI block, images with their alt, `[ref]` shortcuts, code-like HTML, HTML blocks.
    expect(output).toContain('[Pets API](https://example.com/openapi.yaml)');
    expect(output).toContain('![an image](/files/img1 "Image title")');
    expect(output).toContain('[fr]and [fr]a [ref] [fr]shortcut');
    expect(output).toContain('<code class="expression">space.vars.name</code>');
    expect(output).toContain('<p>An HTML block stays as it is</p>');
    expect(output).toContain('[fr]Inline [fr]math $a^2 + b^2$ [fr]costs $5 [fr]and $10');
  });

  it('keeps block tags on their own lines when a hint is written without blank lines', () => {
    const lines = translateAll(RICH_MARKDOWN).split('\n');
    const at = lines.indexOf('{% hint style="info" %}');
    expect(lines.slice(at, at + 3)).toEqual([
      '{% hint style="info" %}',
      '[fr]A [fr]hint [fr]written **[fr]without** [fr]blank [fr]lines.',
      '{% endhint %}',
    ]);
    const tab = lines.indexOf('{% tab title="First tab" %}');
    expect(lines.slice(tab - 1, tab + 3)).toEqual([
      '{% tabs %}',
      '{% tab title="First tab" %}',
      '[fr]Content [fr]of [fr]the [fr]first [fr]tab.',
      '{% endtab %}',
    ]);
  });

  it('keeps soft and hard line breaks with their quote prefixes', () => {
    const output = translateAll(RICH_MARKDOWN);
    expect(output).toContain(
      '> [fr]Quoted [fr]text [fr]on\n> [fr]two [fr]lines [fr]with [fr]a [fr]hard [fr]break  \n> [fr]and [fr]a [fr]third [fr]line.',
    );
    expect(output).toContain('[fr]with [fr]a [fr]backslash\\\n[fr]and [fr]the [fr]next [fr]line.');
  });

  it('puts a line break the engine added back inside the container, and none into a heading or a cell', () => {
    const markdown = '> - Quoted item text\n\n# Title\n\n| a |\n| - |\n| cell |\n';
    const { segments, rebuild } = segmentMarkdown(markdown);
    expect(segments.map((s) => s.text)).toEqual(['Quoted item text', 'Title', 'a', 'cell']);
    expect(rebuild(['Quoted\nitem', 'Ti\ntle', 'a|b', 'c\nd'])).toBe(
      '> - Quoted\n>   item\n\n# Ti tle\n\n| a\\|b |\n| - |\n| c d |\n',
    );
  });

  it('reattaches emphasis delimiters the engine separated from their words', () => {
    const { segments, rebuild } = segmentMarkdown('Some **bold** words\n');
    expect(segments[0]!.text).toBe('Some ⟦1⟧bold⟦2⟧ words');
    expect(rebuild(['Des mots ⟦1⟧ gras ⟦2⟧'])).toBe('Des mots **gras**\n');
  });

  it('leaves nothing to translate in code-only, tag-only, math-only and image-only blocks', () => {
    const { segments } = segmentMarkdown(
      '`code`\n\n{% hint style="info" %}\n\n$$\nx\n$$\n\n![img](/files/a)\n\n1234\n',
    );
    expect(segments.some((s) => hasProse(s.text))).toBe(false);
  });

  it('rebuilds any markdown-ish text byte for byte (property)', () => {
    const token = fc.constantFrom(
      'word',
      'Two words',
      ' ',
      '  ',
      '\n',
      '\n\n',
      '\t',
      '    ',
      '*',
      '**',
      '_',
      '~~',
      '`',
      '```',
      '~~~',
      '[',
      ']',
      '(',
      ')',
      '![',
      '](/pages/a "t")',
      '# ',
      '## ',
      '> ',
      '- ',
      '1. ',
      '|',
      '| --- |',
      '---',
      '===',
      '{% hint style="info" %}',
      '{% endhint %}',
      '{% tab title="A" %}',
      '$',
      '$$',
      '<b>',
      '</b>',
      '<code>',
      '</code>',
      '<!-- c -->',
      '\\',
      '&amp;',
      '&#169;',
      '⟦',
      '⟧',
      '⟦1⟧',
      'https://x.example',
      '<https://y.example>',
      '[^1]',
      '[^1]: ',
      '[x]: /u',
      '[x]',
      '\r\n',
      'ü',
      '你好',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 60 }), (tokens) => {
        const markdown = tokens.join('');
        const { segments, rebuild } = segmentMarkdown(markdown);
        expect(rebuild(segments.map((s) => s.text))).toBe(markdown);
        // A translation restores every placeholder: none is left over that the source did not have.
        const translated = rebuild(segments.map((s) => fakeTranslate(s.text, 'fr')));
        expect((translated.match(/⟦\d+⟧/g) ?? []).length).toBe((markdown.match(/⟦\d+⟧/g) ?? []).length);
      }),
      { numRuns: 500, seed: 20240601 },
    );
  });

  it('keeps code byte-exact under translation for any markdown-ish text (property)', () => {
    const token = fc.constantFrom(
      'word',
      ' ',
      '\n',
      '\n\n',
      '`',
      '```',
      '    ',
      '*',
      '[',
      '](/u)',
      '> ',
      '- ',
      '<b>',
      '</b>',
      'é',
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 40 }), (tokens) => {
        const markdown = tokens.join('');
        const code = (text: string) => verbatimParts(text).code!.concat(verbatimParts(text).inlineCode!);
        expect(code(translateAll(markdown))).toEqual(code(markdown));
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});

describe('LibreTranslate HTML transport', () => {
  it('wraps placeholders in translate="no" spans and escapes the prose, and reads it back', () => {
    const text = 'If a < b & c > d, run ⟦1⟧ then ⟦2⟧.';
    const html = toEngineHtml(text);
    expect(html).toBe(
      'If a &lt; b &amp; c &gt; d, run <span translate="no">⟦1⟧</span> then <span translate="no">⟦2⟧</span>.',
    );
    expect(fromEngineHtml(html)).toBe(text);
    expect(fromEngineHtml('Si a &lt; b&#39;s <span translate="no"> ⟦1⟧ </span><b>x</b>&nbsp;&eacute;')).toBe(
      "Si a < b's ⟦1⟧x\u00a0é",
    );
  });
});
