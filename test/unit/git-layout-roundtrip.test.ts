import { describe, expect, it } from 'vitest';
import { readRepository, writeRepository, type SpaceContent } from '../../sync-server/git-sync/layout';
import {
  applyChanges,
  changesAsText,
  formatterRepo,
  gitbookRepo,
  importRead,
  importTree,
  page,
  spaceFile,
} from '../helpers/git-layout-fixtures';

/** Export -> import -> export changes nothing; import -> export of a repository changes nothing. */

const space: SpaceContent = {
  pages: [
    page(
      'intro',
      'Introduction',
      'Start with [the setup](/pages/setup), then read on.\n\n![diagram](/files/diagram)\n',
    ),
    {
      id: 'grp',
      kind: 'group',
      title: 'Guides',
      slug: 'guides',
      markdown: '',
      children: [
        page('setup', 'Setup', '{% hint style="warning" %}\nBack up first.\n{% endhint %}\n', {
          description: 'Getting it running',
          icon: 'wrench',
          children: [page('linux', 'On Linux', 'See [setup](/pages/setup#top).', { hidden: true, slug: 'linux' })],
        }),
        {
          id: 'ext',
          kind: 'link',
          title: 'Changelog',
          slug: 'changelog',
          href: 'https://example.com/changes',
          markdown: '',
          children: [],
        },
      ],
    },
  ],
  files: [spaceFile('diagram', 'diagram.png', new Uint8Array([1, 2, 3]))],
};

describe('export -> import -> export', () => {
  it('writes a new repository, reads it back as the same space, and then has nothing to write', () => {
    const first = writeRepository(space, undefined, new Map());
    const repo = applyChanges(new Map(), first.changes);
    const read = readRepository(repo, first.baseline);
    expect(read.warnings).toEqual([]);
    const strip = (pages: readonly object[]): unknown =>
      pages.map((p) => {
        const { key: _k, path: _p, children, ...rest } = p as { key: string; path?: string; children: object[] };
        return { ...rest, children: strip(children) };
      });
    expect(strip(read.pages)).toEqual(JSON.parse(JSON.stringify(space.pages)));
    expect(read.files.map((f) => f.id)).toEqual(['diagram']);
    const second = writeRepository(space, read.baseline, repo);
    expect(changesAsText(second.changes)).toEqual({});
    // …and again, from the second baseline.
    const third = writeRepository(space, readRepository(repo, second.baseline).baseline, repo);
    expect(third.changes.size).toBe(0);
  });

  it('gives the same tree a second read, without a write in between', () => {
    const first = writeRepository(space, undefined, new Map());
    const repo = applyChanges(new Map(), first.changes);
    const a = readRepository(repo, first.baseline);
    const b = readRepository(repo, a.baseline);
    expect(b.pages).toEqual(a.pages);
    expect(b.baseline).toEqual(a.baseline);
  });
});

describe('import -> export', () => {
  for (const [name, make] of [
    ['a GitBook repository', gitbookRepo],
    ["another formatter's repository", formatterRepo],
  ] as const)
    it(`writes nothing back to ${name}`, () => {
      const repo = make();
      const { space: imported, baseline } = importTree(repo);
      expect(writeRepository(imported, baseline, repo).changes.size).toBe(0);
      // Nor without the tree at hand.
      expect(writeRepository(imported, baseline, undefined).changes.size).toBe(0);
    });

  it('writes nothing when the caller stored the baseline without binding the new ids (pages matched by content)', () => {
    const repo = gitbookRepo();
    const read = readRepository(repo, undefined);
    const { space: imported } = importRead(read);
    expect(writeRepository(imported, read.baseline, repo).changes.size).toBe(0);
  });
});
