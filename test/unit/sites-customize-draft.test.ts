import { describe, expect, it } from 'vitest';
import {
  changeOf,
  draftOf,
  isHexColor,
  longHex,
  movedLink,
  newLink,
  sameDraft,
  withLink,
} from '../../renderer/src/sites/customize/draft';
import { previewDocument, previewUrl } from '../../renderer/src/sites/customize/preview-document';
import type { SiteCustomization } from '../../renderer/src/sites/settings-api';

/**
 * The customization form's rules (renderer/src/sites/customize/draft.ts): what the form shows for
 * a stored customization, the change it sends, and what it refuses before asking the server.
 */

/** A customization as the API answers it (defaults filled in), with `over` merged on top. */
function stored(over: Partial<SiteCustomization> = {}): SiteCustomization {
  return {
    styling: { primaryColor: { light: '#2b5fce', dark: '#7aa7ff' }, font: 'Inter', corners: 'rounded' },
    favicon: {},
    header: { preset: 'default', links: [] },
    themes: { default: 'system', toggeable: true },
    pagination: { enabled: true },
    ...over,
  };
}

const changed = (result: ReturnType<typeof changeOf>) => {
  if ('problem' in result) throw new Error(`unexpected problem: ${result.problem}`);
  return result.change as Record<string, Record<string, unknown>>;
};

describe('customization draft', () => {
  it('shows a stored customization and sends back what the form manages', () => {
    const c = stored({
      header: {
        logo: { light: 'https://cdn.example.com/l.svg', dark: 'https://cdn.example.com/l.svg' },
        links: [{ title: 'Blog', to: { kind: 'url', url: 'https://blog.example.com' }, style: 'button-primary' }],
      },
      favicon: { emoji: '🦊' },
      themes: { default: 'dark' },
      pagination: { enabled: false },
    });
    const draft = draftOf(c);
    expect(draft).toMatchObject({
      primaryLight: '#2b5fce',
      primaryDark: '#7aa7ff',
      logoLight: 'https://cdn.example.com/l.svg',
      logoDark: '', // the same logo in both themes shows as one
      faviconKind: 'emoji',
      faviconEmoji: '🦊',
      font: 'Inter',
      pagination: false,
      theme: 'dark',
    });
    expect(draft.links.map((l) => [l.title, l.url, l.style])).toEqual([
      ['Blog', 'https://blog.example.com', 'button-primary'],
    ]);
    const change = changed(changeOf({ ...draft, primaryLight: '#b4236e' }, c));
    expect(change.styling).toEqual({ primaryColor: { light: '#b4236e', dark: '#7aa7ff' } });
    expect(change.header).toEqual({
      links: [
        { title: 'Blog', to: { kind: 'url', url: 'https://blog.example.com' }, style: 'button-primary', links: [] },
      ],
      logo: { light: 'https://cdn.example.com/l.svg', dark: 'https://cdn.example.com/l.svg' },
    });
    expect(change.favicon).toEqual({ emoji: '🦊' });
    expect(change.themes).toEqual({ default: 'dark' });
    expect(change.pagination).toEqual({ enabled: false });
  });

  it('uses the light colour and logo for the dark theme when those are left empty', () => {
    const draft = { ...draftOf(stored()), primaryDark: '', logoLight: ' https://x.example/a.png ' };
    const change = changed(changeOf(draft, stored()));
    expect(change.styling!.primaryColor).toEqual({ light: '#2b5fce', dark: '#2b5fce' });
    expect(change.header!.logo).toEqual({ light: 'https://x.example/a.png', dark: 'https://x.example/a.png' });
  });

  it('refuses a colour that is not hex, and an untitled link, before asking the server', () => {
    const draft = draftOf(stored());
    expect(changeOf({ ...draft, primaryLight: 'red' }, stored())).toEqual({
      problem: 'Primary colour: enter a hex colour such as #3366ff',
    });
    expect(changeOf({ ...draft, links: [newLink()] }, stored())).toEqual({
      problem: 'Header link 1: enter its title',
    });
    expect(isHexColor('#abc')).toBe(true);
    expect(isHexColor('#abcd')).toBe(false);
    expect(longHex('#AbC')).toBe('#aabbcc');
  });

  it('says a logo or image favicon cannot be removed (the API merges and refuses null)', () => {
    const c = stored({
      header: { links: [], logo: { light: 'https://x.example/a.png', dark: 'https://x.example/a.png' } },
      favicon: { icon: { light: 'https://x.example/f.png', dark: 'https://x.example/f.png' } },
    });
    const draft = draftOf(c);
    expect(changeOf({ ...draft, logoLight: '' }, c)).toMatchObject({ problem: expect.stringContaining('Logo') });
    expect(changeOf({ ...draft, faviconKind: 'emoji', faviconEmoji: '📘' }, c)).toMatchObject({
      problem: expect.stringContaining('Favicon'),
    });
  });

  it('keeps a link target that is not a URL, and menus, as they are', () => {
    const page = { kind: 'page', page: 'p1', space: 's1' };
    const c = stored({
      header: {
        links: [{ title: 'Docs', to: page, links: [{ title: 'A', to: { kind: 'url', url: 'https://a.example' } }] }],
      },
    });
    const change = changed(changeOf(draftOf(c), c));
    expect((change.header!.links as unknown[])[0]).toEqual({
      title: 'Docs',
      to: page,
      style: 'link',
      links: [{ title: 'A', to: { kind: 'url', url: 'https://a.example' } }],
    });
  });

  it('does not send an unchanged font (GitBook font objects keep their fields)', () => {
    const c = stored({
      styling: { primaryColor: { light: '#111111', dark: '#222222' }, font: { fontFamily: 'Lato' } },
    });
    const draft = draftOf(c);
    expect(draft.font).toBe('Lato');
    expect(changed(changeOf(draft, c)).styling).not.toHaveProperty('font');
    expect(changed(changeOf({ ...draft, font: 'Roboto' }, c)).styling!.font).toBe('Roboto');
  });

  it('edits, moves and compares link rows by their keys', () => {
    const c = stored({
      header: {
        links: ['One', 'Two', 'Three'].map((title) => ({
          title,
          to: { kind: 'url', url: `https://${title}.example` },
        })),
      },
    });
    const draft = draftOf(c);
    const [one, two] = draft.links;
    const moved = movedLink(draft, two!.key, -1);
    expect(moved.links.map((l) => l.title)).toEqual(['Two', 'One', 'Three']);
    expect(movedLink(draft, one!.key, -1)).toBe(draft); // already first
    expect(withLink(draft, one!.key, { title: 'Uno' }).links[0]!.title).toBe('Uno');
    // The same customization read again (new keys) is the same draft; a saved answer keeps the keys.
    expect(sameDraft(draft, draftOf(c))).toBe(true);
    expect(draftOf(c, draft.links).links.map((l) => l.key)).toEqual(draft.links.map((l) => l.key));
    expect(sameDraft(draft, moved)).toBe(false);
  });
});

describe('preview document', () => {
  it('puts a base for the site first in the head, escaped, with links opening in a new tab', () => {
    const html =
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title></head><body></body></html>';
    const out = previewDocument(html, 'http://h/sites/s1/?share=a&b="c"');
    expect(out).toBe(
      '<!doctype html><html lang="en"><head><base href="http://h/sites/s1/?share=a&amp;b=&quot;c&quot;" target="_blank"><meta charset="utf-8"><title>x</title></head><body></body></html>',
    );
    expect(previewDocument('<p>Not found</p>', 'http://h/')).toBe(
      '<base href="http://h/" target="_blank"><p>Not found</p>',
    );
  });

  it('adds the visitor token to the address of a visitor-auth site', () => {
    expect(previewUrl('http://h/sites/s1/')).toBe('http://h/sites/s1/');
    expect(previewUrl('http://h/sites/s1/', 'a.b.c')).toBe('http://h/sites/s1/?jwt_token=a.b.c');
  });
});
