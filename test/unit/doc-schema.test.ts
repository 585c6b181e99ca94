import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { ContentDoc, Materializer, type ApiPage } from '../../shared/doc';
import { assertMatchesGitBook } from '../helpers/gitbook-schema';

/**
 * Materialized objects, completed with what the server adds (page `urls`,
 * file `downloadURL`, revision envelope), must validate against GitBook's
 * own OpenAPI schemas.
 */

const APP = 'https://folio.test/s/space1';

/** A deep copy of a page with `urls.app` added on every document page, as the server presents it. */
function withUrls(page: ApiPage): unknown {
  const children = 'pages' in page ? { pages: page.pages.map(withUrls) } : {};
  return page.type === 'document'
    ? { ...page, ...children, urls: { app: `${APP}/page/${page.id}` } }
    : { ...page, ...children };
}

function space() {
  const doc = new Y.Doc();
  const content = new ContentDoc(doc, { now: () => new Date('2024-05-01T10:00:00.000Z') });
  const group = content.createPage({ title: 'Guides', kind: 'group', emoji: '1f4d8' });
  const start = content.createPage({
    title: 'Start',
    parent: group,
    emoji: '🚀',
    icon: 'rocket',
    description: 'Begin',
    markdown: '# Hello\n\nWorld.\n',
  });
  content.createPage({ title: 'Nested', parent: start, hidden: true, layout: { width: 'wide', cover: false } });
  content.createPage({ title: 'Elsewhere', kind: 'link', href: 'https://example.com', parent: group });
  content.createPage({ title: 'Top link', kind: 'link', href: 'https://example.org' });
  content.createPage({ title: 'Empty' });
  content.putFile('f1', { name: 'a.png', contentType: 'image/png', size: 12, width: 3, height: 4, sha256: 'beef' });
  content.putFile('f2', { name: 'b.txt', contentType: 'text/plain', size: 0 });
  content.createReusableContent({ id: 'r1', title: 'Snippet', markdown: 'Reusable' });
  content.setVariable('version', '1.2');
  return new Materializer(doc).snapshot();
}

describe('materialized objects against GitBook schemas', () => {
  it('every page validates as RevisionPage (getPageById) and the tree as listPages', () => {
    const s = space();
    expect(s.pageIndex.size).toBe(6);
    for (const info of s.pageIndex.values()) assertMatchesGitBook('getPageById', 200, withUrls(info.page));
    assertMatchesGitBook('listPages', 200, { pages: s.pages.map(withUrls) });
    // The check has teeth: a document without its required layout is rejected.
    const doc = [...s.pageIndex.values()].find((i) => i.page.type === 'document')!.page;
    const { layout: _layout, ...withoutLayout } = withUrls(doc) as Record<string, unknown>;
    expect(() => assertMatchesGitBook('getPageById', 200, withoutLayout)).toThrow(/does not match/);
  });

  it('document and group pages validate for getPageByPath', () => {
    const s = space();
    for (const id of s.pagesByPath.values())
      assertMatchesGitBook('getPageByPath', 200, withUrls(s.pageIndex.get(id)!.page));
  });

  it('files validate as RevisionFile once downloadURL is added', () => {
    const s = space();
    for (const file of s.files)
      assertMatchesGitBook('getFileById', 200, { ...file, downloadURL: `https://folio.test/files/${file.id}` });
  });

  it('a revision assembled from a snapshot validates (getRevisionById)', () => {
    const s = space();
    const revision = {
      object: 'revision',
      id: 'rev1',
      parents: [],
      pages: s.pages.map(withUrls),
      files: s.files.map((f) => ({ ...f, downloadURL: `https://folio.test/files/${f.id}` })),
      reusableContents: s.reusableContents,
      variables: s.variables,
      tags: [],
      createdAt: '2024-05-01T10:00:00.000Z',
      urls: { app: APP },
      type: 'edits',
    };
    assertMatchesGitBook('getRevisionById', 200, revision);
  });
});
