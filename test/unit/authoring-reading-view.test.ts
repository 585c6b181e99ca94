import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../renderer/src/preview/render-markdown';

/** The reading view renders GitBook's blocks as boxes, still sanitized. */
describe('reading view of GitBook blocks', () => {
  it('boxes hints and tabs with their titles', () => {
    const html = renderMarkdown(
      '{% hint style="warning" %}\nMind **this**.\n{% endhint %}\n\n{% tabs %}\n{% tab title="Linux" %}\napt install\n{% endtab %}\n{% endtabs %}',
    );
    expect(html).toContain(
      '<div class="folio-hint folio-hint-warning"><p class="folio-hint-title">Warning</p><p>Mind <strong>this</strong>.</p></div>',
    );
    expect(html).toContain(
      '<div class="folio-tabs"><div class="folio-tab"><p class="folio-tab-title">Linux</p><p>apt install</p></div></div>',
    );
    expect(html).not.toContain('{%');
  });

  it('makes embeds and files link cards, and keeps unsafe URLs out', () => {
    const html = renderMarkdown('{% embed url="https://example.org/v" %}\n\n{% file src="javascript:alert(1)" %}');
    expect(html).toContain('<p class="folio-embed"><a href="https://example.org/v">https://example.org/v</a></p>');
    expect(html).not.toContain('javascript:');
  });

  it('leaves tags inside code alone and drops foreign class names', () => {
    const html = renderMarkdown('```\n{% hint style="info" %}\n```\n\n<div class="evil">x</div>');
    expect(html).toContain('{% hint style="info" %}');
    expect(html).not.toContain('evil');
  });
});
