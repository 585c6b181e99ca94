import { describe, expect, it } from 'vitest';
import { htmlToMarkdown, worthConverting } from '../../renderer/src/editor/authoring/html-to-markdown';

/** Pasted HTML becomes GitHub-flavoured markdown, without anything executable. */
describe('HTML paste to markdown', () => {
  it('converts headings, emphasis, lists, links and code', () => {
    const html =
      '<h2>Install</h2><p>Run <strong>this</strong> <em>now</em>, see <a href="https://example.org/docs">the docs</a>.</p>' +
      '<ul><li>one</li><li>two</li></ul><ol><li>first</li></ol><pre><code class="language-sh">npm i folio\n</code></pre>';
    expect(htmlToMarkdown(html)).toBe(
      '## Install\n\nRun **this** _now_, see [the docs](https://example.org/docs).\n\n- one\n- two\n\n1. first\n\n```sh\nnpm i folio\n```',
    );
  });

  it('writes GFM tables, strikethrough and task boxes', () => {
    const html =
      '<table><thead><tr><th>Name</th><th>Role</th></tr></thead><tbody><tr><td>Ada</td><td>a|b</td></tr></tbody></table>' +
      '<p><del>old</del> new</p><ul><li><input type="checkbox" checked> done</li></ul>';
    expect(htmlToMarkdown(html)).toBe('| Name | Role |\n| --- | --- |\n| Ada | a\\|b |\n\n~~old~~ new\n\n- [x] done');
  });

  it('gives a table without a head its first row as header', () => {
    expect(htmlToMarkdown('<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>')).toBe(
      '| a | b |\n| --- | --- |\n| c | d |',
    );
  });

  it('drops scripts, styles, unsafe links and data images', () => {
    const html =
      '<style>p{color:red}</style><script>alert(1)</script><p>Hi <a href="javascript:alert(1)">there</a>' +
      '<img src="data:image/png;base64,AAAA" alt="pic"><img src="https://x.org/a.png" alt="ok"></p>';
    const md = htmlToMarkdown(html);
    expect(md).toBe('Hi therepic![ok](https://x.org/a.png)');
    expect(md).not.toMatch(/alert|color|javascript|data:/);
  });

  it('does not bold a Google Docs paste wrapper', () => {
    expect(htmlToMarkdown('<b style="font-weight:normal;" id="docs-internal-guid-1"><p>Plain</p></b>')).toBe('Plain');
  });

  it('leaves structureless HTML (a code editor’s coloured spans) to the plain-text paste', () => {
    expect(worthConverting('<div><span style="color:red">const</span> x = 1;</div>')).toBe(false);
    expect(worthConverting('<p>Hello</p>')).toBe(true);
  });
});
