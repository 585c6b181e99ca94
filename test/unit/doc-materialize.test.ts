import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ContentDoc, DEFAULT_LAYOUT, Materializer, type ApiPage, type ApiPageDocument } from '../../shared/doc';
import { PAGE, pagesRoot } from '../../shared/doc/keys';
import { analyzeMarkdown } from '../../shared/markdown/analyze';

/** Materialization rules (tree, slugs, paths, API shapes) and incremental reuse of page objects. */

const at = () => new Date('2024-05-01T10:00:00.000Z');
const setup = () => {
  const doc = new Y.Doc();
  return {
    doc,
    content: new ContentDoc(doc, { now: at }),
    materializer: new Materializer(doc, { analyze: analyzeMarkdown }),
  };
};
const byPath = (pages: readonly ApiPage[]): Record<string, string> =>
  Object.fromEntries(
    pages.flatMap((p) => ('path' in p ? [[p.path, p.type], ...Object.entries(byPath(p.pages))] : [[p.title, p.type]])),
  );

describe('Materializer tree and paths', () => {
  it('joins slugs along the tree, groups included, and shapes pages like GitBook', () => {
    const { content, materializer } = setup();
    const guides = content.createPage({ title: 'Guides', kind: 'group' });
    const start = content.createPage({
      title: 'Getting started',
      parent: guides,
      markdown: '# Start\n',
      emoji: '🚀',
      description: 'Begin here',
    });
    content.createPage({ title: 'Install', parent: start });
    content.createPage({ title: 'Website', kind: 'link', href: 'https://example.com', parent: guides });
    content.createPage({ title: 'FAQ' });
    const s = materializer.snapshot();
    expect(byPath(s.pages)).toEqual({
      guides: 'group',
      'guides/getting-started': 'document',
      'guides/getting-started/install': 'document',
      Website: 'link',
      faq: 'document',
    });
    const page = s.pageIndex.get(start)!.page as ApiPageDocument;
    expect(page).toMatchObject({
      id: start,
      title: 'Getting started',
      kind: 'sheet',
      type: 'document',
      slug: 'getting-started',
      path: 'guides/getting-started',
      emoji: '🚀',
      description: 'Begin here',
      markdown: '# Start\n',
      hidden: false,
      noIndex: false,
      tags: [],
      createdAt: '2024-05-01T10:00:00.000Z',
      updatedAt: '2024-05-01T10:00:00.000Z',
    });
    expect(page.layout).toEqual(DEFAULT_LAYOUT);
    const link = s.pages[0]!.type === 'group' ? s.pages[0]!.pages[1]! : undefined;
    expect(link).toMatchObject({
      type: 'link',
      kind: 'link',
      href: 'https://example.com',
      target: { kind: 'url', url: 'https://example.com' },
    });
    expect(s.pagesByPath.get('guides/getting-started')).toBe(start);
    expect(Object.isFrozen(page)).toBe(true);
  });

  it('deduplicates slugs that concurrent edits made equal, deterministically by sibling order', () => {
    const { doc, content, materializer } = setup();
    const a = content.createPage({ id: 'a', title: 'Alpha' });
    const b = content.createPage({ id: 'b', title: 'Beta' });
    // Raw write bypassing ContentDoc's check, as a concurrent rename on another replica would produce.
    (pagesRoot(doc).get(b) as Y.Map<unknown>).set(PAGE.slug, 'alpha');
    const s = materializer.snapshot();
    expect([s.pageIndex.get(a)!.path, s.pageIndex.get(b)!.path]).toEqual(['alpha', 'alpha-2']);
  });

  it('puts groups stored under a page back at the root and re-roots children of link pages', () => {
    const { doc, content, materializer } = setup();
    const d = content.createPage({ id: 'd', title: 'Doc' });
    const g = content.createPage({ id: 'g', title: 'Group', kind: 'group' });
    const l = content.createPage({ id: 'l', title: 'Link', kind: 'link', href: 'https://x.test' });
    const c = content.createPage({ id: 'c', title: 'Child', parent: d });
    const pages = pagesRoot(doc);
    (pages.get(g) as Y.Map<unknown>).set(PAGE.parent, d);
    (pages.get(c) as Y.Map<unknown>).set(PAGE.parent, l);
    const s = materializer.snapshot();
    expect(s.pages.map((p) => p.id).sort()).toEqual([c, d, g, l].sort());
    expect(s.pageIndex.get(g)!.parentId).toBeNull();
    expect(s.pageIndex.get(c)!.parentId).toBeNull();
  });

  it('survives malformed values written by a peer', () => {
    const { doc, content, materializer } = setup();
    const ok = content.createPage({ title: 'Fine' });
    const pages = pagesRoot(doc);
    pages.set('junk', 'not a map');
    const bad = new Y.Map<unknown>();
    pages.set('bad', bad);
    bad.set(PAGE.title, 42);
    bad.set(PAGE.kind, 'weird');
    bad.set(PAGE.body, 'not a Y.Text');
    bad.set(PAGE.emoji, 'nope');
    bad.set(PAGE.createdAt, 'yesterday');
    bad.set(PAGE.layout, { width: 'huge', outline: false });
    const s = materializer.snapshot();
    expect(s.pageIndex.has('junk')).toBe(false);
    expect(s.pageIndex.get(ok)).toBeDefined();
    const page = s.pageIndex.get('bad')!.page as ApiPageDocument;
    expect(page).toMatchObject({
      title: 'Untitled',
      type: 'document',
      markdown: '',
      slug: 'page',
      layout: { width: 'default', outline: false },
    });
    expect(page.emoji).toBeUndefined();
    expect(page.createdAt).toBeUndefined();
  });

  it('materializes files, reusable contents and variables', () => {
    const { content, materializer } = setup();
    content.putFile('f1', { name: 'b.png', contentType: 'image/png', size: 5, width: 2, height: 1, sha256: 'cafe' });
    content.putFile('f2', { name: 'a.txt', contentType: 'text/plain', size: 1 });
    content.createReusableContent({ id: 'r1', title: 'Note', markdown: 'Hi' });
    content.setVariable('z', '1');
    content.setVariable('a', '2');
    const s = materializer.snapshot();
    expect(s.files).toEqual([
      { id: 'f2', name: 'a.txt', contentType: 'text/plain', size: 1 },
      { id: 'f1', name: 'b.png', contentType: 'image/png', size: 5, dimensions: { width: 2, height: 1 } },
    ]);
    expect(s.fileIndex.get('f1')!.sha256).toBe('cafe');
    expect(s.reusableContents).toEqual([{ id: 'r1', title: 'Note' }]);
    expect(s.reusableMarkdown.get('r1')).toBe('Hi');
    expect(JSON.stringify(s.variables)).toBe('{"a":"2","z":"1"}');
  });
});

describe('incremental materialization', () => {
  /** 3 top-level pages with 10 children each, each child with 2 grandchildren. */
  function space() {
    const env = setup();
    const ids: string[][] = [];
    for (let i = 0; i < 3; i++) {
      const top = env.content.createPage({
        id: `t${i}`,
        title: `Top ${i}`,
        markdown: `# Top ${i}\n\nSee [child](./c${i}-0.md).\n`,
      });
      const row = [top];
      for (let j = 0; j < 10; j++) {
        const child = env.content.createPage({
          id: `c${i}-${j}`,
          title: `C${i}-${j}`,
          parent: top,
          markdown: `Child ${i} ${j}\n`,
        });
        for (let k = 0; k < 2; k++)
          env.content.createPage({
            id: `g${i}-${j}-${k}`,
            title: `G${k}`,
            parent: child,
            markdown: `[up](../c${i}-${j}.md)\n`,
          });
        row.push(child);
      }
      ids.push(row);
    }
    return env;
  }

  it('after a one-character edit, only the edited page and its ancestors are new objects', () => {
    const { content, materializer } = space();
    const s1 = materializer.snapshot();
    const a1 = new Map([...s1.pageIndex.keys()].map((id) => [id, s1.analysis(id)]));
    content.pageBody('g1-4-0').insert(0, 'x');
    const s2 = materializer.snapshot();
    const changed = [...s2.pageIndex.keys()].filter((id) => s2.pageIndex.get(id)!.page !== s1.pageIndex.get(id)!.page);
    expect(changed.sort()).toEqual(['c1-4', 'g1-4-0', 't1']);
    expect((s2.pageIndex.get('g1-4-0')!.page as ApiPageDocument).markdown).toBe('x[up](../c1-4.md)\n');
    expect(s2.pages[0]).toBe(s1.pages[0]);
    expect(s2.pages[2]).toBe(s1.pages[2]);
    expect(s2.pages[1]).not.toBe(s1.pages[1]);
    // The new parent shares its unchanged children.
    const [t1a, t1b] = [s1.pages[1] as ApiPageDocument, s2.pages[1] as ApiPageDocument];
    expect(t1b.pages.filter((p, i) => p === t1a.pages[i]).length).toBe(9);
    // Derived analysis is shared too, except for the edited page.
    for (const [id, analysis] of a1) {
      if (id === 'g1-4-0') expect(s2.analysis(id)).not.toBe(analysis);
      else expect(s2.analysis(id)).toBe(analysis);
    }
    // The old snapshot is untouched.
    expect((s1.pageIndex.get('g1-4-0')!.page as ApiPageDocument).markdown).toBe('[up](../c1-4.md)\n');
  });

  it('returns the same snapshot when nothing changed, and rebuilds paths of a moved subtree', () => {
    const { content, materializer } = space();
    const s1 = materializer.snapshot();
    expect(materializer.snapshot()).toBe(s1);
    content.movePage('c0-3', { parent: 't2' });
    const s2 = materializer.snapshot();
    expect(s2.pageIndex.get('g0-3-1')!.path).toBe('top-2/c0-3/g1');
    expect(s2.pageIndex.get('g0-3-1')!.page).not.toBe(s1.pageIndex.get('g0-3-1')!.page);
    expect(s2.pageIndex.get('c1-0')!.page).toBe(s1.pageIndex.get('c1-0')!.page);
    expect(s2.pages[1]).toBe(s1.pages[1]);
  });

  it('analyzes links and resolves them against the snapshot', () => {
    const { content, materializer } = space();
    content.putFile('img', { name: 'diagram.png', contentType: 'image/png', size: 1 });
    content.setMarkdown(
      'c2-1',
      '## Setup\n\n[top](/pages/t0) [gone](./missing.md) ![d](.gitbook/assets/diagram.png) [g](c2-1/g0.md)\n',
    );
    const s = materializer.snapshot();
    expect(s.analysis('c2-1')!.sections.map((x) => x.id)).toEqual(['setup']);
    expect(s.resolvedLinks('c2-1')!.map((l) => l.resolved)).toEqual([
      { kind: 'page', page: 't0' },
      { kind: 'broken', href: './missing.md' },
      { kind: 'file', file: 'img' },
      { kind: 'page', page: 'g2-1-0' },
    ]);
    expect(s.resolvedLinks('g0-0-0')!.map((l) => l.resolved)).toEqual([{ kind: 'page', page: 'c0-0' }]);
  });
});
