import { describe, expect, it } from 'vitest';
import { readRepository, writeRepository, type SpacePage } from '../../sync-server/git-sync/layout';
import {
  applyChanges,
  changesAsText,
  editPage,
  findPage,
  formatterRepo,
  gitbookRepo,
  importTree,
  removePage,
  textOf,
  tree,
} from '../helpers/git-layout-fixtures';

/** Pages deleted, moved and renamed in Folio: their files and SUMMARY.md entries follow, nothing else moves. */

const ids = (pages: readonly SpacePage[]): unknown => pages.map((p) => [p.title, ids(p.children)]);

describe('structure changes on a GitBook repository', () => {
  const repo = gitbookRepo();
  const { space, baseline } = importTree(repo);

  it('deletes the file of a deleted page and only its SUMMARY.md line', () => {
    const api = findPage(space.pages, 'API');
    const { changes } = writeRepository({ pages: removePage(space.pages, api.id), files: space.files }, baseline, repo);
    expect(changesAsText(changes)).toEqual({
      'reference/api.md': null,
      'SUMMARY.md': textOf(repo, 'SUMMARY.md')!.replace('* [API](reference/api.md)\n', ''),
    });
  });

  it('deletes a group: its heading goes, its pages with it', () => {
    const reference = findPage(space.pages, 'Reference');
    const { changes } = writeRepository(
      { pages: removePage(space.pages, reference.id), files: space.files },
      baseline,
      repo,
    );
    expect(changesAsText(changes)).toEqual({
      'reference/api.md': null,
      'SUMMARY.md': textOf(repo, 'SUMMARY.md')!.replace(/\n## Reference[\s\S]*$/, ''),
    });
  });

  it('renames a folder page: its folder moves, its children with it, and links to them follow', () => {
    const installation = findPage(space.pages, 'Installation');
    const pages = editPage(space.pages, installation.id, (p) => ({ ...p, slug: 'setup' }));
    const { changes, baseline: next } = writeRepository({ pages, files: space.files }, baseline, repo);
    const text = changesAsText(changes);
    expect(Object.keys(text).sort()).toEqual([
      'SUMMARY.md',
      'getting-started/installation/README.md',
      'getting-started/installation/linux.md',
      'getting-started/installation/macos.md',
      'getting-started/quickstart.md',
      'getting-started/setup/README.md',
      'getting-started/setup/linux.md',
      'getting-started/setup/macos.md',
    ]);
    expect(text['getting-started/installation/README.md']).toBeNull();
    // Moved files keep their text: their links are relative to each other.
    for (const name of ['README.md', 'linux.md', 'macos.md'])
      expect(text[`getting-started/setup/${name}`]).toBe(textOf(repo, `getting-started/installation/${name}`));
    // The link from another page to the moved folder is re-pointed, on its line only.
    expect(text['getting-started/quickstart.md']).toBe(
      textOf(repo, 'getting-started/quickstart.md')!.replace(
        '[install it](installation/)',
        '[install it](setup/README.md)',
      ),
    );
    expect(text['SUMMARY.md']).toBe(
      textOf(repo, 'SUMMARY.md')!.replace(/getting-started\/installation\//g, 'getting-started/setup/'),
    );
    // And the new state reads back as the space, ids and all.
    const reread = readRepository(applyChanges(repo, changes), next);
    expect(findPage(reread.pages, 'Installation')).toMatchObject({
      id: installation.id,
      path: 'getting-started/setup/README.md',
    });
    expect(reread.pages.map((p) => p.id)).toEqual(pages.map((p) => p.id));
  });

  it('moves a page to another parent: file, SUMMARY.md entry (re-indented) and the links in and to it', () => {
    const linux = findPage(space.pages, 'Linux');
    const reference = findPage(space.pages, 'Reference');
    let pages = removePage(space.pages, linux.id);
    pages = editPage(pages, reference.id, (p) => ({ ...p, children: [...p.children, linux] }));
    const { changes } = writeRepository({ pages, files: space.files }, baseline, repo);
    const text = changesAsText(changes);
    expect(Object.keys(text).sort()).toEqual([
      'SUMMARY.md',
      'getting-started/installation/README.md',
      'getting-started/installation/linux.md',
      'reference/linux.md',
    ]);
    expect(text['getting-started/installation/linux.md']).toBeNull();
    expect(text['reference/linux.md']).toBe(
      '---\nhidden: true\n---\n\n# Linux\n\nSee [macOS](../getting-started/installation/macos.md#homebrew) and [the API](api.md).\n',
    );
    // The content-ref block of the installation page points at the moved file (its url and its link).
    expect(text['getting-started/installation/README.md']).toBe(
      textOf(repo, 'getting-started/installation/README.md')!.replace(
        '{% content-ref url="linux.md" %}\n[linux.md](linux.md)',
        '{% content-ref url="../../reference/linux.md" %}\n[linux.md](../../reference/linux.md)',
      ),
    );
    expect(text['SUMMARY.md']).toBe(
      textOf(repo, 'SUMMARY.md')!
        .replace('  * [Linux](getting-started/installation/linux.md)\n', '')
        .replace(
          '* [Status page](https://status.example.com)\n',
          '* [Status page](https://status.example.com)\n* [Linux](reference/linux.md)\n',
        ),
    );
  });

  it('reorders pages by reordering SUMMARY.md lines alone', () => {
    const group = findPage(space.pages, 'Getting started');
    const pages = editPage(space.pages, group.id, (p) => ({ ...p, children: [...p.children].reverse() }));
    const { changes } = writeRepository({ pages, files: space.files }, baseline, repo);
    expect([...changes.keys()]).toEqual(['SUMMARY.md']);
    expect(textOf(changes, 'SUMMARY.md')).toBe(
      textOf(repo, 'SUMMARY.md')!.replace(
        '* [Quickstart](getting-started/quickstart.md)\n* [Installation](getting-started/installation/README.md)\n  * [Linux](getting-started/installation/linux.md)\n  * [macOS](getting-started/installation/macos.md)\n',
        '* [Installation](getting-started/installation/README.md)\n  * [Linux](getting-started/installation/linux.md)\n  * [macOS](getting-started/installation/macos.md)\n* [Quickstart](getting-started/quickstart.md)\n',
      ),
    );
  });

  it('renames a group in SUMMARY.md only, keeping the heading anchor GitBook wrote', () => {
    const reference = findPage(space.pages, 'Reference');
    const pages = editPage(space.pages, reference.id, (p) => ({ ...p, title: 'API reference' }));
    const { changes } = writeRepository({ pages, files: space.files }, baseline, repo);
    expect(changesAsText(changes)).toEqual({
      'SUMMARY.md': textOf(repo, 'SUMMARY.md')!.replace('## Reference <a', '## API reference <a'),
    });
  });
});

describe("structure changes in another formatter's style", () => {
  const repo = formatterRepo();
  const { space, baseline } = importTree(repo);

  it('keeps the list marker and indentation style of SUMMARY.md for new and moved entries', () => {
    const faq = findPage(space.pages, 'FAQ');
    const guide = findPage(space.pages, 'Guide');
    let pages = removePage(space.pages, faq.id);
    pages = editPage(pages, guide.id, (p) => ({ ...p, children: [...p.children, faq] }));
    expect(ids(pages)).toEqual([
      ['Home', []],
      [
        'Guide',
        [
          ['Deep dive', []],
          ['FAQ', []],
        ],
      ],
    ]);
    const { changes } = writeRepository({ pages, files: space.files }, baseline, repo);
    expect(changesAsText(changes)).toEqual({
      'faq.md': null,
      'guide/faq.md': textOf(repo, 'faq.md'),
      'SUMMARY.md':
        '# Summary\n\n- [Home](README.md)\n- [Guide](guide.md)\n    - [Deep dive](guide/deep-dive.md)\n    - [FAQ](guide/faq.md)\n',
    });
  });
});

describe('SUMMARY.md entries the read skipped', () => {
  it('stay where they were, as written, while the structure around them changes', () => {
    const repo = tree({
      'SUMMARY.md': '# Contents\n\n* [Home](README.md)\n* [Draft](draft.md)\n* [A](a.md)\n* [B](b.md)\n',
      'README.md': '# Home\n',
      'a.md': '# A\n',
      'b.md': '# B\n',
    });
    const { space, baseline, read } = importTree(repo);
    expect(read.warnings).toEqual([
      'SUMMARY.md line 4: draft.md is not in the repository; the entry is skipped and left as written',
    ]);
    const { changes } = writeRepository(
      { pages: removePage(space.pages, findPage(space.pages, 'A').id), files: [] },
      baseline,
      repo,
    );
    expect(changesAsText(changes)).toEqual({
      'a.md': null,
      'SUMMARY.md': '# Contents\n\n* [Home](README.md)\n* [Draft](draft.md)\n* [B](b.md)\n',
    });
  });
});
