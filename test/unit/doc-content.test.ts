import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ContentDoc, ContentDocError, type ContentChange } from '../../shared/doc';
import { PAGE, pagesRoot } from '../../shared/doc/keys';

/** ContentDoc operations on one replica (convergence lives in doc-convergence.test.ts). */

const clock = () => {
  let t = Date.parse('2024-05-01T10:00:00.000Z');
  return () => new Date((t += 1000));
};
const fresh = () => new ContentDoc(new Y.Doc(), { now: clock() });
const childrenOf = (c: ContentDoc, parent: string | null) =>
  c
    .listPageIds()
    .map((id) => c.getPage(id)!)
    .filter((p) => p.parent === parent)
    .sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : a.id < b.id ? -1 : 1))
    .map((p) => p.title);
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof ContentDocError ? err.code : String(err);
  }
  return 'no error';
};

describe('ContentDoc pages', () => {
  it('creates pages with random 20-character ids, timestamps, slugs and a markdown body', () => {
    const c = fresh();
    const id = c.createPage({ title: 'Getting Started!', markdown: '# Hi\n', emoji: '📘', description: 'First steps' });
    expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(c.getPage(id)).toMatchObject({
      id,
      kind: 'document',
      title: 'Getting Started!',
      slug: 'getting-started',
      parent: null,
      emoji: '📘',
      description: 'First steps',
      hidden: false,
      markdown: '# Hi\n',
      createdAt: '2024-05-01T10:00:01.000Z',
      updatedAt: '2024-05-01T10:00:01.000Z',
    });
    expect(c.pageBody(id)).toBeInstanceOf(Y.Text);
    expect(c.listPageIds()).toEqual([id]);
  });

  it('keeps slugs unique among siblings only, and accepts an explicit id', () => {
    const c = fresh();
    const a = c.createPage({ title: 'Intro' });
    const b = c.createPage({ title: 'Intro' });
    const child = c.createPage({ id: 'child-1', title: 'Intro', parent: a });
    expect([c.getPage(a)!.slug, c.getPage(b)!.slug, c.getPage(child)!.slug]).toEqual(['intro', 'intro-2', 'intro']);
    expect(child).toBe('child-1');
    expect(code(() => c.createPage({ id: 'child-1', title: 'Again' }))).toBe('conflict');
    expect(code(() => c.createPage({ id: 'bad id!', title: 'X' }))).toBe('invalid');
  });

  it('places pages before/after siblings and appends by default', () => {
    const c = fresh();
    const a = c.createPage({ title: 'A' });
    const d = c.createPage({ title: 'D' });
    c.createPage({ title: 'B', after: a });
    c.createPage({ title: 'C', before: d });
    c.createPage({ title: 'Start', before: a });
    expect(childrenOf(c, null)).toEqual(['Start', 'A', 'B', 'C', 'D']);
    expect(code(() => c.createPage({ title: 'X', after: 'nope' }))).toBe('invalid');
  });

  it('refuses invalid pages: empty title, bad emoji, group under a page, child of a link, link without href', () => {
    const c = fresh();
    const doc = c.createPage({ title: 'Doc' });
    const link = c.createPage({ title: 'Link', kind: 'link', href: 'https://example.com' });
    expect(code(() => c.createPage({ title: '  ' }))).toBe('invalid');
    expect(code(() => c.createPage({ title: 'X', emoji: 'not an emoji' }))).toBe('invalid');
    expect(code(() => c.createPage({ title: 'G', kind: 'group', parent: doc }))).toBe('invalid');
    expect(code(() => c.createPage({ title: 'X', parent: link }))).toBe('invalid');
    expect(code(() => c.createPage({ title: 'X', parent: 'missing' }))).toBe('not-found');
    expect(code(() => c.createPage({ title: 'L', kind: 'link' }))).toBe('invalid');
  });

  it('updates fields, clears optional ones with null, keeps the slug on rename and refuses a taken slug', () => {
    const c = fresh();
    const a = c.createPage({ title: 'Alpha', emoji: '📘' });
    c.createPage({ title: 'Beta' });
    c.updatePage(a, { title: 'Renamed', emoji: null, hidden: true, layout: { width: 'wide' } });
    c.updatePage(a, { layout: { outline: false } });
    const page = c.getPage(a)!;
    expect(page).toMatchObject({
      title: 'Renamed',
      slug: 'alpha',
      hidden: true,
      layout: { width: 'wide', outline: false },
    });
    expect(page.emoji).toBeUndefined();
    expect(page.updatedAt! > page.createdAt!).toBe(true);
    c.updatePage(a, { slug: 'New Slug' });
    expect(c.getPage(a)!.slug).toBe('new-slug');
    expect(code(() => c.updatePage(a, { slug: 'beta' }))).toBe('conflict');
    expect(code(() => c.updatePage('missing', { title: 'x' }))).toBe('not-found');
  });

  it('moves pages, refusing moves under themselves or a descendant', () => {
    const c = fresh();
    const a = c.createPage({ title: 'A' });
    const b = c.createPage({ title: 'B', parent: a });
    const x = c.createPage({ title: 'X', parent: b });
    const intro = c.createPage({ title: 'Intro' });
    c.createPage({ title: 'Intro', parent: a });
    expect(code(() => c.movePage(a, { parent: x }))).toBe('invalid');
    expect(code(() => c.movePage(a, { parent: a }))).toBe('invalid');
    c.movePage(x, { parent: null, before: a });
    expect(childrenOf(c, null)).toEqual(['X', 'A', 'Intro']);
    c.movePage(intro, { parent: a, before: b });
    expect(childrenOf(c, a)).toEqual(['Intro', 'B', 'Intro']);
    // Moving next to a page with the same slug makes the moved one unique.
    expect(c.getPage(intro)!.slug).toBe('intro-2');
  });

  it('deletes a page with its whole subtree', () => {
    const c = fresh();
    const a = c.createPage({ title: 'A' });
    const b = c.createPage({ title: 'B', parent: a });
    const d = c.createPage({ title: 'D', parent: b });
    const keep = c.createPage({ title: 'Keep' });
    expect(new Set(c.deletePage(a))).toEqual(new Set([a, b, d]));
    expect(c.listPageIds()).toEqual([keep]);
    expect(c.deletePage(a)).toEqual([]);
  });
});

describe('ContentDoc markdown', () => {
  it('setMarkdown edits only the differing span, so a concurrent insert elsewhere survives', () => {
    const one = new ContentDoc(new Y.Doc());
    const id = one.createPage({ title: 'P', markdown: 'Hello world.\n\nSecond paragraph.\n' });
    const other = new ContentDoc(new Y.Doc());
    Y.applyUpdate(other.ydoc, Y.encodeStateAsUpdate(one.ydoc));

    const deltas: unknown[] = [];
    one.pageBody(id).observe((e) => deltas.push(e.delta));
    one.setMarkdown(id, 'Hello brave world.\n\nSecond paragraph.\n');
    expect(deltas).toEqual([[{ retain: 6 }, { insert: 'brave ' }]]);
    other.pageBody(id).insert(other.getMarkdown(id).length, 'Third, written concurrently.\n');

    Y.applyUpdate(other.ydoc, Y.encodeStateAsUpdate(one.ydoc));
    Y.applyUpdate(one.ydoc, Y.encodeStateAsUpdate(other.ydoc));
    const expected = 'Hello brave world.\n\nSecond paragraph.\nThird, written concurrently.\n';
    expect(one.getMarkdown(id)).toBe(expected);
    expect(other.getMarkdown(id)).toBe(expected);
  });

  it('reading the markdown of a page stored without a body never writes to the document', () => {
    const c = fresh();
    const id = c.createPage({ title: 'P', markdown: 'x' });
    c.ydoc.transact(() => (pagesRoot(c.ydoc).get(id) as Y.Map<unknown>).delete(PAGE.body));
    let writes = 0;
    c.ydoc.on('update', () => writes++);
    expect(c.getMarkdown(id)).toBe('');
    expect(c.getPage(id)!.markdown).toBe('');
    expect(writes).toBe(0);
    c.setMarkdown(id, 'again');
    expect(c.getMarkdown(id)).toBe('again');
  });

  it('never splits an emoji surrogate pair and does nothing when the text is unchanged', () => {
    const c = fresh();
    const id = c.createPage({ title: 'P', markdown: 'a😀b' });
    const before = c.getPage(id)!.updatedAt;
    c.setMarkdown(id, 'a😀b');
    expect(c.getPage(id)!.updatedAt).toBe(before);
    c.setMarkdown(id, 'a😁b');
    expect(c.getMarkdown(id)).toBe('a😁b');
    expect(c.getPage(id)!.updatedAt).not.toBe(before);
  });
});

describe('ContentDoc files, variables, reusable contents', () => {
  it('stores file metadata, lists files by name and deletes them', () => {
    const c = fresh();
    c.putFile('f2', { name: 'b.png', contentType: 'image/png', size: 10, width: 4, height: 3, sha256: 'ab' });
    c.putFile('f1', { name: 'a.pdf', contentType: 'application/pdf', size: 20 });
    c.putFile('f2', { name: 'b.png', contentType: 'image/png', size: 11 });
    expect(c.listFiles()).toEqual([
      { id: 'f1', name: 'a.pdf', contentType: 'application/pdf', size: 20 },
      { id: 'f2', name: 'b.png', contentType: 'image/png', size: 11 },
    ]);
    c.deleteFile('f1');
    expect(c.listFiles().map((f) => f.id)).toEqual(['f2']);
    expect(code(() => c.putFile('f/3', { name: 'x', contentType: 'x', size: 1 }))).toBe('invalid');
  });

  it('sets and deletes variables, refusing values over 256 characters', () => {
    const c = fresh();
    c.setVariable('version', '2.0');
    c.setVariable('product', 'Folio');
    expect(c.variables()).toEqual({ product: 'Folio', version: '2.0' });
    expect(Object.keys(c.variables())).toEqual(['product', 'version']);
    c.deleteVariable('version');
    expect(c.variables()).toEqual({ product: 'Folio' });
    expect(code(() => c.setVariable('x', 'y'.repeat(257)))).toBe('invalid');
  });

  it('creates, updates, lists and deletes reusable contents', () => {
    const c = fresh();
    const id = c.createReusableContent({ title: 'Warning', markdown: 'Careful.' });
    c.createReusableContent({ id: 'r-a', title: 'Alpha' });
    c.updateReusableContent(id, { markdown: 'Be careful.' });
    expect(c.listReusableContents()).toEqual([
      { id: 'r-a', title: 'Alpha', markdown: '' },
      { id, title: 'Warning', markdown: 'Be careful.' },
    ]);
    c.deleteReusableContent('r-a');
    expect(c.getReusableContent('r-a')).toBeUndefined();
    expect(code(() => c.updateReusableContent('r-a', { title: 'x' }))).toBe('not-found');
  });

  it('reports each transaction once with what it touched', () => {
    const c = fresh();
    const changes: ContentChange[] = [];
    const off = c.observeChanges((change) => changes.push(change));
    const id = c.createPage({ title: 'A', markdown: 'x' });
    c.setMarkdown(id, 'xy');
    c.putFile('f1', { name: 'a', contentType: 'text/plain', size: 1 });
    c.setVariable('v', '1');
    off();
    c.setVariable('v', '2');
    expect(changes).toEqual([
      { pages: new Set([id]), files: new Set(), reusableContents: new Set(), variables: false },
      { pages: new Set([id]), files: new Set(), reusableContents: new Set(), variables: false },
      { pages: new Set(), files: new Set(['f1']), reusableContents: new Set(), variables: false },
      { pages: new Set(), files: new Set(), reusableContents: new Set(), variables: true },
    ]);
  });
});
