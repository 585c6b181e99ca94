import { describe, expect, it } from 'vitest';
import { createLinkTargets, hrefForRef, resolveLink } from '../../shared/markdown';

/** Resolution of hrefs against a revision's pages and files (the convention in shared/markdown/links.ts). */

// readme, guides (group) > start > install, guides > faq, api
const targets = createLinkTargets(
  [
    { id: 'PREADME', path: 'readme', hasChildren: false },
    { id: 'PGUIDES', path: 'guides', hasChildren: true, group: true },
    { id: 'PSTART', path: 'guides/start', hasChildren: true },
    { id: 'PINSTALL', path: 'guides/start/install', hasChildren: false },
    { id: 'PFAQ', path: 'guides/faq', hasChildren: false },
    { id: 'PAPI', path: 'api', hasChildren: false },
  ],
  [
    { id: 'F2', name: 'logo.png' },
    { id: 'F1', name: 'logo.png' },
    { id: 'F3', name: 'spec v1.pdf' },
  ],
);

describe('resolveLink', () => {
  it('resolves GitBook absolute forms: by id, by path, by Git file path, and the root README', () => {
    const r = (href: string) => resolveLink('api', href, targets);
    expect(r('/pages/PFAQ')).toEqual({ kind: 'page', page: 'PFAQ' });
    expect(r('/pages/PFAQ#q1')).toEqual({ kind: 'page', page: 'PFAQ', anchor: 'q1' });
    expect(r('/pages/guides/faq')).toEqual({ kind: 'page', page: 'PFAQ' });
    expect(r('/pages/guides/faq.md')).toEqual({ kind: 'page', page: 'PFAQ' });
    expect(r('/pages/guides/start/README.md')).toEqual({ kind: 'page', page: 'PSTART' });
    expect(r('/pages/README.md')).toEqual({ kind: 'page', page: 'PREADME' });
    expect(r('/guides/start/install')).toEqual({ kind: 'page', page: 'PINSTALL' });
    expect(r('/pages/nope')).toEqual({ kind: 'broken', href: '/pages/nope' });
  });

  it('resolves relative links from the page Git file: <path>.md, or <path>/README.md when it has children', () => {
    // guides/faq is guides/faq.md: siblings are in guides/
    expect(resolveLink('guides/faq', './start.md', targets)).toEqual({ kind: 'page', page: 'PSTART' });
    expect(resolveLink('guides/faq', 'start/install.md#run', targets)).toEqual({
      kind: 'page',
      page: 'PINSTALL',
      anchor: 'run',
    });
    expect(resolveLink('guides/faq', '../api.md', targets)).toEqual({ kind: 'page', page: 'PAPI' });
    expect(resolveLink('guides/faq', './README.md', targets)).toEqual({ kind: 'page', page: 'PGUIDES' });
    // guides/start has children, so it is guides/start/README.md: ./install.md is its child, ../faq.md its sibling
    expect(resolveLink('guides/start', './install.md', targets)).toEqual({ kind: 'page', page: 'PINSTALL' });
    expect(resolveLink('guides/start', '../faq.md', targets)).toEqual({ kind: 'page', page: 'PFAQ' });
    expect(resolveLink('guides/start', '../README.md', targets)).toEqual({ kind: 'page', page: 'PGUIDES' });
    // Folder-style link without extension.
    expect(resolveLink('readme', './guides', targets)).toEqual({ kind: 'page', page: 'PGUIDES' });
    // Climbing above the root is broken, not clamped.
    expect(resolveLink('api', '../../api.md', targets)).toEqual({ kind: 'broken', href: '../../api.md' });
  });

  it('resolves files by id, by Git asset path, by relative name; anchors and URLs pass through', () => {
    expect(resolveLink('api', '/files/F3', targets)).toEqual({ kind: 'file', file: 'F3' });
    expect(resolveLink('guides/start/install', '../../.gitbook/assets/logo.png', targets)).toEqual({
      kind: 'file',
      file: 'F1',
    });
    expect(resolveLink('api', '.gitbook/assets/spec%20v1.pdf', targets)).toEqual({ kind: 'file', file: 'F3' });
    expect(resolveLink('api', './logo.png', targets)).toEqual({ kind: 'file', file: 'F1' });
    expect(resolveLink('api', '/files/missing', targets)).toEqual({ kind: 'broken', href: '/files/missing' });
    expect(resolveLink('api', '#usage', targets)).toEqual({ kind: 'anchor', anchor: 'usage' });
    expect(resolveLink('api', 'https://x.test/a?b#c', targets)).toEqual({ kind: 'url', url: 'https://x.test/a?b#c' });
    expect(resolveLink('api', '', targets)).toEqual({ kind: 'broken', href: '' });
  });

  it('writes canonical by-id hrefs that resolve back to the same target', () => {
    const refs = [
      { kind: 'page', page: 'PFAQ' },
      { kind: 'file', file: 'F2' },
      { kind: 'anchor', anchor: 'x', page: 'PAPI' },
      { kind: 'anchor', anchor: 'y' },
      { kind: 'url', url: 'https://example.com' },
    ];
    expect(refs.map(hrefForRef)).toEqual(['/pages/PFAQ', '/files/F2', '/pages/PAPI#x', '#y', 'https://example.com']);
    expect(refs.map((ref) => resolveLink('readme', hrefForRef(ref), targets))).toEqual([
      { kind: 'page', page: 'PFAQ' },
      { kind: 'file', file: 'F2' },
      { kind: 'page', page: 'PAPI', anchor: 'x' },
      { kind: 'anchor', anchor: 'y' },
      { kind: 'url', url: 'https://example.com' },
    ]);
  });
});
