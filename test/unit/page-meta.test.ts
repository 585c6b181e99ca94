import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ContentDoc, Materializer } from '../../shared/doc';
import { duplicatePage } from '../../shared/doc/duplicate-page';
import {
  changeSlug,
  checkSlug,
  currentPagePath,
  findFormerPath,
  formerPathsOf,
  movePageKeepingPath,
  readPageMeta,
} from '../../shared/doc/page-meta';
import { deletePageUndoable } from '../../shared/doc/undoable-delete';

/** The page header's document operations: meta, slugs and former paths, duplicate, move, delete + undo. */

const fresh = () => new ContentDoc(new Y.Doc());

/** Guides > Install > Linux, and a top-level Intro. */
function sample() {
  const c = fresh();
  const intro = c.createPage({ title: 'Intro', markdown: 'Hello.\n' });
  const guides = c.createPage({ title: 'Guides', emoji: '📘', description: 'How to' });
  const install = c.createPage({ title: 'Install', parent: guides, markdown: '# Install\n' });
  const linux = c.createPage({ title: 'Linux', parent: install, markdown: 'apt\n' });
  return { c, intro, guides, install, linux };
}

/** Paths as the materializer (hence REST) builds them, by page id. */
function materializedPaths(c: ContentDoc): Map<string, string> {
  const m = new Materializer(c.ydoc);
  const out = new Map<string, string>();
  const walk = (pages: readonly { id: string; path?: string; pages?: readonly unknown[] }[]) => {
    for (const p of pages) {
      if (p.path !== undefined) out.set(p.id, p.path);
      walk((p.pages ?? []) as typeof pages);
    }
  };
  walk(m.snapshot().pages as never);
  m.destroy();
  return out;
}

describe('page meta', () => {
  it('reads the header fields and the same path the materializer builds', () => {
    const { c, guides, linux } = sample();
    expect(readPageMeta(c.ydoc, guides)).toMatchObject({
      title: 'Guides',
      emoji: '📘',
      description: 'How to',
      slug: 'guides',
      hidden: false,
      path: 'guides',
    });
    expect(currentPagePath(c.ydoc, linux)).toBe('guides/install/linux');
    for (const [id, path] of materializedPaths(c)) expect(currentPagePath(c.ydoc, id)).toBe(path);
    expect(readPageMeta(c.ydoc, 'missing')).toBeUndefined();
  });

  it('checks typed slugs: normalized, not empty, not used by a sibling', () => {
    const { c, intro } = sample();
    expect(checkSlug(c, intro, 'Getting Started!')).toEqual({ ok: true, slug: 'getting-started' });
    expect(checkSlug(c, intro, '  ---  ')).toMatchObject({ ok: false });
    expect(checkSlug(c, intro, 'Guides')).toMatchObject({ ok: false, message: expect.stringContaining('guides') });
    expect(checkSlug(c, intro, 'intro')).toEqual({ ok: true, slug: 'intro' });
  });
});

describe('former paths', () => {
  it('records the old path on a slug change, in the same transaction', () => {
    const { c, install } = sample();
    let transactions = 0;
    c.ydoc.on('afterTransaction', () => transactions++);
    expect(changeSlug(c, install, 'Setup')).toBe('setup');
    expect(transactions).toBe(1);
    expect(currentPagePath(c.ydoc, install)).toBe('guides/setup');
    expect(formerPathsOf(c.ydoc, install)).toEqual(['guides/install']);
    // Back to the first slug: the current path is not a former one.
    changeSlug(c, install, 'install');
    expect(formerPathsOf(c.ydoc, install)).toEqual(['guides/setup']);
  });

  it('finds a page by a former path, and its sub-pages by prefix; longest match wins', () => {
    const { c, guides, install, linux } = sample();
    changeSlug(c, guides, 'handbook');
    expect(findFormerPath(c.ydoc, 'guides')).toEqual({ pageId: guides, rest: '' });
    expect(findFormerPath(c.ydoc, 'guides/install/linux')).toEqual({ pageId: guides, rest: '/install/linux' });
    changeSlug(c, install, 'setup');
    expect(findFormerPath(c.ydoc, 'handbook/install')).toEqual({ pageId: install, rest: '' });
    expect(findFormerPath(c.ydoc, 'handbook/install/linux')).toEqual({ pageId: install, rest: '/linux' });
    expect(currentPagePath(c.ydoc, linux)).toBe('handbook/setup/linux');
    expect(findFormerPath(c.ydoc, 'guidesx')).toBeUndefined();
    expect(findFormerPath(c.ydoc, 'nowhere')).toBeUndefined();
  });

  it('records the old path on a move to another parent, not on a reorder', () => {
    const { c, intro, guides, install } = sample();
    movePageKeepingPath(c, install, { parent: null, after: intro });
    expect(currentPagePath(c.ydoc, install)).toBe('install');
    expect(formerPathsOf(c.ydoc, install)).toEqual(['guides/install']);
    movePageKeepingPath(c, install, { parent: null, after: guides });
    expect(formerPathsOf(c.ydoc, install)).toEqual(['guides/install']);
  });

  it('ignores malformed former paths a peer wrote', () => {
    const { c, intro } = sample();
    const map = c.ydoc.getMap('pages').get(intro) as Y.Map<unknown>;
    map.set('formerPaths', ['old', 42, '', null]);
    expect(formerPathsOf(c.ydoc, intro)).toEqual(['old']);
    map.set('formerPaths', 'not a list');
    expect(formerPathsOf(c.ydoc, intro)).toEqual([]);
  });
});

describe('duplicate', () => {
  it('copies the page, its body, fields and sub-pages with new ids, right after the original', () => {
    const { c, intro, guides, install } = sample();
    c.updatePage(guides, { hidden: true });
    const copy = duplicatePage(c, guides);
    expect(copy).not.toBe(guides);
    const page = c.getPage(copy)!;
    expect(page).toMatchObject({
      title: 'Guides (copy)',
      slug: 'guides-copy',
      emoji: '📘',
      description: 'How to',
      hidden: true,
      parent: null,
    });
    const top = materializedPaths(c);
    expect(top.get(copy)).toBe('guides-copy');
    const roots = new Materializer(c.ydoc).snapshot().pages.map((p) => p.id);
    expect(roots).toEqual([intro, guides, copy]);
    const copiedInstall = c.listPageIds().find((id) => id !== install && c.getPage(id)!.title === 'Install')!;
    expect(c.getPage(copiedInstall)).toMatchObject({ parent: copy, markdown: '# Install\n', slug: 'install' });
    const copiedLinux = c.listPageIds().find((id) => c.getPage(id)!.parent === copiedInstall)!;
    expect(c.getMarkdown(copiedLinux)).toBe('apt\n');
    // The copy's body is its own text.
    c.setMarkdown(copiedInstall, 'changed\n');
    expect(c.getMarkdown(install)).toBe('# Install\n');
  });
});

describe('delete with undo', () => {
  it('restores the page, its sub-pages and bodies, keeping edits made meanwhile', () => {
    const { c, intro, guides, install, linux } = sample();
    const removal = deletePageUndoable(c, guides);
    expect([...removal.deleted].sort()).toEqual([guides, install, linux].sort());
    expect(c.hasPage(install)).toBe(false);
    c.setMarkdown(intro, 'Edited meanwhile.\n');
    expect(removal.undo()).toBe(true);
    expect(c.getPage(guides)).toMatchObject({ title: 'Guides', emoji: '📘' });
    expect(c.getMarkdown(linux)).toBe('apt\n');
    expect(c.getPage(linux)!.parent).toBe(install);
    expect(c.getMarkdown(intro)).toBe('Edited meanwhile.\n');
    expect(removal.undo()).toBe(false);
  });

  it('syncs the restore to another replica', () => {
    const { c, guides, linux } = sample();
    const other = new Y.Doc();
    Y.applyUpdate(other, Y.encodeStateAsUpdate(c.ydoc));
    c.ydoc.on('update', (u: Uint8Array) => Y.applyUpdate(other, u));
    const removal = deletePageUndoable(c, guides);
    expect(new ContentDoc(other).hasPage(linux)).toBe(false);
    removal.undo();
    expect(new ContentDoc(other).getMarkdown(linux)).toBe('apt\n');
  });

  it('does nothing after dispose', () => {
    const { c, guides } = sample();
    const removal = deletePageUndoable(c, guides);
    removal.dispose();
    expect(removal.undo()).toBe(false);
    expect(c.hasPage(guides)).toBe(false);
  });
});
