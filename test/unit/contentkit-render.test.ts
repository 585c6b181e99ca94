import { describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import { contentKitText, markdownSources, renderContentKit } from '../../shared/contentkit';

interface Element {
  tagName: string;
  attrs: { name: string; value: string }[];
}

/** Every element of the HTML, as an HTML parser reads it (tag names lowercase). */
function elements(html: string): Element[] {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return Array.from(document.body.querySelectorAll('*'), (e) => ({
    tagName: e.tagName.toLowerCase(),
    attrs: Array.from(e.attributes, (a) => ({ name: a.name, value: a.value })),
  }));
}
const attr = (e: Element, name: string) => e.attrs.find((a) => a.name === name)?.value;

const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2)>'&`;

describe('ContentKit rendering', () => {
  it('draws a block of stacks, text, markdown, code, a hint and a divider', () => {
    const html = renderContentKit(
      {
        type: 'block',
        children: [
          {
            type: 'hstack',
            align: 'center',
            children: [
              { type: 'box', grow: 1, children: [{ type: 'text', style: 'bold', children: 'Title' }] },
              { type: 'text', children: ['plain ', { type: 'text', style: 'code', children: 'x' }] },
            ],
          },
          { type: 'markdown', content: '**md**' },
          { type: 'divider', size: 'small' },
          { type: 'codeblock', content: 'const a = 1 < 2;', syntax: 'javascript' },
          { type: 'hint', children: [{ type: 'text', children: 'Heads up' }] },
        ],
      },
      { markdown: (s) => `<p>rendered:${s.length}</p>` },
    );
    expect(html).toContain('<div class="folio-ck"><div class="ck-block"><div class="ck-hstack ck-align-center">');
    expect(html).toContain('<div class="ck-box ck-grow"><p class="ck-text"><strong>Title</strong></p></div>');
    expect(html).toContain('<p class="ck-text">plain <code>x</code></p>');
    expect(html).toContain('<div class="ck-markdown"><p>rendered:6</p></div>');
    expect(html).toContain('<hr class="ck-divider ck-divider-small">');
    expect(html).toContain('<code class="language-javascript">const a = 1 &#60; 2;</code>');
    expect(html).toContain('<div class="ck-hint" role="note">Heads up</div>');
  });

  it('escapes every string an integration sends, in text and attributes', () => {
    const html = renderContentKit(
      {
        type: 'block',
        children: [
          { type: 'text', children: HOSTILE },
          { type: 'markdown', content: HOSTILE }, // no markdown renderer given: text
          { type: 'button', label: HOSTILE, tooltip: HOSTILE, onPress: { action: HOSTILE } },
          { type: 'textinput', state: HOSTILE, placeholder: HOSTILE, initialValue: HOSTILE },
          { type: 'select', state: 's', options: [{ id: HOSTILE, label: HOSTILE }], placeholder: HOSTILE },
          {
            type: 'card',
            title: HOSTILE,
            hint: HOSTILE,
            children: [{ type: 'codeblock', content: HOSTILE, syntax: HOSTILE }],
          },
          { type: 'input', label: HOSTILE, element: { type: 'radio', state: HOSTILE, value: HOSTILE } },
          { type: HOSTILE, children: HOSTILE },
        ],
      },
      { interactive: true },
    );
    const tags = new Set(elements(html).map((e) => e.tagName));
    expect(tags.has('script')).toBe(false);
    expect(tags.has('img')).toBe(false);
    for (const e of elements(html)) for (const a of e.attrs) expect(a.name).not.toMatch(/^on/);
    expect(html).not.toMatch(/<script|<img/i);
    // The hostile text is there, as text.
    expect(html).toContain('&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;');
  });

  it('drops javascript:, data: and relative URLs from links, buttons, images and frames', () => {
    for (const url of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'data:text/html,<b>x</b>',
      '/relative',
      'vbscript:x',
    ]) {
      const html = renderContentKit(
        {
          type: 'block',
          children: [
            { type: 'text', children: [{ type: 'link', target: { url }, children: 'go' }] },
            { type: 'button', label: 'Open', onPress: { action: '@ui.url.open', url } },
            { type: 'image', source: { url }, aspectRatio: 1 },
            { type: 'webframe', source: { url } },
            { type: 'card', title: 'c', onPress: { action: '@ui.url.open', url } },
          ],
        },
        { interactive: true },
      );
      const els = elements(html);
      expect(els.filter((e) => e.tagName === 'a')).toEqual([]);
      expect(els.filter((e) => ['img', 'iframe'].includes(e.tagName))).toEqual([]);
      expect(html).toContain('>go</p>'); // the link's text stays
    }
  });

  it('keeps http(s) links, data:image images and frames, sandboxed', () => {
    const html = renderContentKit({
      type: 'block',
      children: [
        {
          type: 'text',
          children: [{ type: 'link', target: { url: 'https://example.com/a?b=1&c=2' }, children: 'go' }],
        },
        { type: 'image', source: { url: 'data:image/png;base64,iVBORw0KGgo=' }, aspectRatio: 1.7 },
        { type: 'webframe', source: { url: 'https://embed.example.com/x' }, aspectRatio: 1 },
        { type: 'button', label: 'Docs', onPress: { action: '@ui.url.open', url: 'http://example.org/' } },
      ],
    });
    const els = elements(html);
    const a = els.find((e) => e.tagName === 'a' && attr(e, 'class') === 'ck-link')!;
    expect(attr(a, 'href')).toBe('https://example.com/a?b=1&c=2');
    expect(attr(a, 'rel')).toBe('noopener noreferrer nofollow');
    expect(
      attr(
        els.find((e) => e.tagName === 'img')!,
        'src',
      ),
    ).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(
      attr(
        els.find((e) => e.tagName === 'img')!,
        'class',
      ),
    ).toContain('ck-ar-16x9');
    const frame = els.find((e) => e.tagName === 'iframe')!;
    expect(attr(frame, 'src')).toBe('https://embed.example.com/x');
    expect(attr(frame, 'sandbox')).toBe('allow-scripts');
    expect(attr(frame, 'referrerpolicy')).toBe('no-referrer');
    expect(
      attr(
        els.find((e) => attr(e, 'class')?.startsWith('ck-button'))!,
        'href',
      ),
    ).toBe('http://example.org/');
    expect(els.some((e) => e.attrs.some((x) => x.name === 'style'))).toBe(false);
    // Without frames (the editor: its CSP forbids them), a link to the source.
    const noFrames = renderContentKit(
      { type: 'webframe', source: { url: 'https://embed.example.com/x' } },
      { frames: false },
    );
    expect(noFrames).not.toContain('<iframe');
    expect(noFrames).toContain('href="https://embed.example.com/x"');
  });

  it('binds state, and marks actions and inputs only when interactive', () => {
    const tree = {
      type: 'block',
      children: [
        { type: 'markdown', content: { $state: 'md' } },
        { type: 'button', label: 'More', onPress: { action: 'more', step: 2 } },
        { type: 'textinput', state: 'q', initialValue: 'start' },
        { type: 'switch', state: 'on' },
      ],
    };
    const state = { md: 'from *state*', q: 'typed', on: true };
    const live = renderContentKit(tree, { state, interactive: true });
    expect(live).toContain('<p>from *state*</p>');
    expect(live).toContain('data-ck-action="{&#34;action&#34;:&#34;more&#34;,&#34;step&#34;:2}"');
    expect(live).toContain('value="typed" data-ck-state="q"');
    expect(live).toMatch(/role="switch" checked data-ck-state="on"/);
    const still = renderContentKit(tree, { state });
    expect(still).not.toContain('data-ck-');
    expect(still).toContain('<button type="button" class="ck-button ck-button-secondary" disabled>More</button>');
  });

  it('degrades unknown elements to their text, and bounds depth', () => {
    const html = renderContentKit({
      type: 'block',
      children: [{ type: 'future-thing', title: 'Future', children: [{ type: 'text', children: 'inside' }] }],
    });
    expect(html).toContain('<p class="ck-text ck-unknown">Future inside</p>');
    let deep: Record<string, unknown> = { type: 'text', children: 'bottom' };
    for (let i = 0; i < 5000; i++) deep = { type: 'vstack', children: [deep] };
    const out = renderContentKit(deep);
    expect(out.startsWith('<div class="folio-ck"><div class="ck-vstack')).toBe(true); // it returns: no stack overflow
    expect(out.length).toBeLessThan(10_000);
    expect(renderContentKit(null)).toBe('<div class="folio-ck"></div>');
  });

  it('lists markdown sources and text', () => {
    const tree = {
      type: 'block',
      children: [
        { type: 'markdown', content: 'a' },
        { type: 'card', children: [{ type: 'markdown', content: { $state: 'b' } }] },
        { type: 'markdown', content: 'a' },
      ],
    };
    expect(markdownSources(tree, { b: 'bee' })).toEqual(['a', 'bee']);
    expect(contentKitText({ type: 'card', title: 'T', children: [{ type: 'text', children: ['x', 'y'] }] })).toBe(
      'T x y',
    );
  });
});
