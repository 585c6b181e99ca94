import { describe, expect, it } from 'vitest';
import { addRedirects, readRepository, writeRepository } from '../../sync-server/git-sync/layout';
import {
  applyChanges,
  changesAsText,
  editPage,
  findPage,
  gitbookRepo,
  importTree,
  textOf,
  tree,
} from '../helpers/git-layout-fixtures';

/**
 * `.gitbook.yaml` redirects (read on import, added on export when a page's file moves) and assets
 * changed or deleted in the repository.
 */

const CONFIG = `# Docs of Acme
root: ./

structure:
  readme: README.md   # the first page
  summary: SUMMARY.md

redirects:
  # old links
  old/quickstart: getting-started/quickstart.md   # kept as written
  "gone": reference/missing.md
`;

describe('reading redirects', () => {
  const repo = applyChanges(gitbookRepo(), tree({ '.gitbook.yaml': CONFIG }));

  it('answers each redirect with the page its file is, and warns about one leading to no page', () => {
    const read = readRepository(repo, undefined);
    expect(read.redirects).toEqual([
      {
        from: 'old/quickstart',
        to: 'getting-started/quickstart.md',
        page: { key: 'getting-started/quickstart.md' },
        known: false,
      },
      { from: 'gone', to: 'reference/missing.md', known: false },
    ]);
    expect(read.warnings).toEqual([
      '.gitbook.yaml: the redirect "gone" leads to reference/missing.md, which is no page: it is not applied',
    ]);
  });

  it('gives ids once the baseline knows the page, and marks redirects the last sync had', () => {
    const { baseline } = importTree(repo);
    const again = readRepository(repo, baseline);
    const quickstart = baseline.pages.find((p) => p.key === 'getting-started/quickstart.md')!;
    expect(again.redirects[0]).toEqual({
      from: 'old/quickstart',
      to: 'getting-started/quickstart.md',
      page: { key: 'getting-started/quickstart.md', id: quickstart.id },
      known: true,
    });
  });

  it('resolves redirects under the docs root, and normalizes their keys', () => {
    const read = readRepository(
      tree({
        '.gitbook.yaml': 'root: ./docs/\nredirects:\n  /a/b/: page.md\n  c.md: page.md\n  ../out: page.md\n',
        'docs/README.md': '# Home\n',
        'docs/page.md': '# Page\n',
      }),
      undefined,
    );
    expect(read.redirects.map((r) => [r.from, r.to, r.page?.key])).toEqual([
      ['a/b', 'docs/page.md', 'docs/page.md'],
      ['c', 'docs/page.md', 'docs/page.md'],
    ]);
    expect(read.warnings).toEqual([
      '.gitbook.yaml: the redirect "../out" is not a path to a file of the docs: it is ignored',
    ]);
  });
});

describe('writing redirects when Folio moves a page', () => {
  it('adds one per moved file to an existing redirects map, every other byte kept', () => {
    const repo = applyChanges(gitbookRepo(), tree({ '.gitbook.yaml': CONFIG }));
    const { space, baseline } = importTree(repo);
    const installation = findPage(space.pages, 'Installation');
    const pages = editPage(space.pages, installation.id, (p) => ({ ...p, slug: 'setup' }));
    const { changes, baseline: next } = writeRepository({ pages, files: space.files }, baseline, repo);
    const written = changesAsText(changes)['.gitbook.yaml'];
    expect(written).toBe(
      `${CONFIG}  getting-started/installation: getting-started/setup/README.md\n` +
        '  getting-started/installation/linux: getting-started/setup/linux.md\n' +
        '  getting-started/installation/macos: getting-started/setup/macos.md\n',
    );
    expect(next.configText).toBe(written);
    // The next read knows them (the import does not apply them again); exporting again changes nothing.
    const after = applyChanges(repo, changes);
    const read = readRepository(after, next);
    expect(read.redirects.every((r) => r.known)).toBe(true);
    expect(writeRepository({ pages, files: space.files }, next, after).changes.size).toBe(0);
  });

  it('adds none to a repository without a redirects map (GitBook adds redirects only when asked)', () => {
    for (const extra of [{}, { '.gitbook.yaml': 'root: ./\n' }] as Record<string, string>[]) {
      const repo = applyChanges(gitbookRepo(), tree(extra));
      const { space, baseline } = importTree(repo);
      const api = findPage(space.pages, 'API');
      const pages = editPage(space.pages, api.id, (p) => ({ ...p, slug: 'api-reference' }));
      const { changes } = writeRepository({ pages, files: space.files }, baseline, repo);
      expect(changesAsText(changes)).toMatchObject({ 'reference/api.md': null });
      expect(changes.has('.gitbook.yaml')).toBe(false);
    }
  });

  it('never changes or drops an existing redirect, and keeps flow maps flow', () => {
    expect(addRedirects('redirects: {}\n', new Map([['a', 'b.md']]))).toBe('redirects: { a: b.md }\n');
    expect(
      addRedirects(
        "redirects: { 'a': b.md }  # x\n",
        new Map([
          ['a', 'c.md'],
          ['d', 'e.md'],
        ]),
      ),
    ).toBe("redirects: { 'a': b.md, d: e.md }  # x\n");
    expect(addRedirects('redirects:\n  a: b.md', new Map([['c', 'd.md']]))).toBe('redirects:\n  a: b.md\n  c: d.md\n');
    expect(addRedirects('redirects:\n    a: b.md\nroot: ./\n', new Map([['a', 'x.md']]))).toBe(
      'redirects:\n    a: b.md\nroot: ./\n',
    );
    expect(addRedirects('root: ./\n', new Map([['a', 'b.md']]))).toBe('root: ./\n');
  });
});

describe('assets changed or deleted in the repository', () => {
  const repo = gitbookRepo();
  const { baseline } = importTree(repo);
  const screen = baseline.files.find((f) => f.path === '.gitbook/assets/screen.png')!;

  it('reads a changed asset as its known file, marked changed, and a deleted one as deleted', () => {
    const next = applyChanges(
      repo,
      new Map([
        ['.gitbook/assets/screen.png', new Uint8Array([1, 2, 3])],
        ['.gitbook/assets/guide.pdf', null],
      ]),
    );
    const read = readRepository(next, baseline);
    const changed = read.files.find((f) => f.path === '.gitbook/assets/screen.png')!;
    expect(changed).toMatchObject({ id: screen.id, changed: true, baseSha256: screen.sha256 });
    expect(read.deletedFiles.map((f) => f.path)).toEqual(['.gitbook/assets/guide.pdf']);
    expect(read.baseline.files.map((f) => f.path)).toEqual(['.gitbook/assets/screen.png']);
    expect(read.baseline.files[0]!.sha256).not.toBe(screen.sha256);
    expect(textOf(next, 'README.md')).toBe(textOf(repo, 'README.md'));
  });

  it('reads an unchanged asset as not changed', () => {
    const read = readRepository(repo, baseline);
    expect(read.files.every((f) => !f.changed)).toBe(true);
    expect(read.deletedFiles).toEqual([]);
  });
});
