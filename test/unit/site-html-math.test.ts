import { describe, expect, it } from 'vitest';
import { renderSiteBody } from '../../sync-server/markdown/site-html';
import { MAX_FORMULAS, MAX_TEX_PER_PAGE } from '../../sync-server/markdown/math';

/**
 * GitBook's math on published pages: `$$…$$` alone in a paragraph is a
 * display formula, inside text an inline one; both become MathML on the
 * server (no script, no fonts), read from the source so markdown does not
 * mangle the TeX, with hostile input kept bounded and inert.
 */
const html = (markdown: string) => renderSiteBody(markdown).html;

describe('math', () => {
  it('renders a display formula as block MathML', () => {
    const out = html('Before.\n\n$$\nf(x) = \\frac{a_1 * b}{c_2 * d}\n$$\n\nAfter.\n');
    expect(out).toContain(
      '<div class="math-display"><span class="katex"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block">',
    );
    expect(out).toContain('<mfrac>');
    // The `*` pairs did not become emphasis: the TeX came from the source.
    expect(out).not.toContain('<em>');
    expect(out).toContain('<annotation encoding="application/x-tex">f(x) = \\frac{a_1 * b}{c_2 * d}</annotation>');
  });

  it('renders inline formulas inside text, keeping escapes markdown would eat', () => {
    const out = html('The set $$\\{x^2\\}$$ is small, and $$y$$ too.\n');
    expect(out).toMatch(/^<p>The set <span class="math-inline"><span class="katex"><math [^>]*><semantics>/);
    expect(out).toContain('<mo stretchy="false">{</mo>');
    expect(out).toContain('</span> is small, and <span class="math-inline">');
    expect(out).toContain('</span> too.</p>');
  });

  it('leaves dollars in code and single dollars alone', () => {
    const out = html('It costs $5 and $6.\n\n`$$x$$`\n\n```\n$$\ny\n$$\n```\n');
    expect(out).not.toContain('katex');
    expect(out).toContain('<code>$$x$$</code>');
  });

  it('keeps hostile formulas inert: no links, no scripts, bounded work', () => {
    const out = html(
      '$$\\href{javascript:alert(1)}{x} \\url{javascript:alert(2)} \\htmlClass{evil}{y} <script>alert(3)</script>$$\n\n' +
        '$$\\def\\a{\\a\\a}\\a$$\n',
    );
    expect(out).not.toMatch(/href=|<script|javascript:alert\(1\)"|class="evil"/);
    const many = html(Array.from({ length: MAX_FORMULAS + 5 }, (_, i) => `$$x_${i}$$`).join(' ') + '\n');
    expect(many.match(/<math /g)).toHaveLength(MAX_FORMULAS);
    expect(many).toContain(`<span class="math-inline">x_${MAX_FORMULAS + 4}</span>`);
    // Past the page's TeX budget, formulas stay as source even under the count limit.
    const long = `$$${'x+'.repeat(1_900)}y$$`;
    const heavy = html(Array.from({ length: 40 }, () => long).join(' ') + '\n');
    const rendered = heavy.match(/<math /g)?.length ?? 0;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(Math.ceil(MAX_TEX_PER_PAGE / long.length) + 1);
  });
});
