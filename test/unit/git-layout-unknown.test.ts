import { describe, expect, it } from 'vitest';
import { readRepository, writeRepository } from '../../sync-server/git-sync/layout';
import {
  applyChanges,
  changesAsText,
  editPage,
  findPage,
  importTree,
  page,
  removePage,
  tree,
} from '../helpers/git-layout-fixtures';

/** Files Folio does not know are never written or deleted; a project directory fences the docs in. */

const monorepo = () =>
  tree({
    'package.json': '{"name":"app"}\n',
    'README.md': '# The app (not the docs)\n',
    'src/index.ts': 'export {};\n',
    '.github/workflows/docs.yml': 'on: push\n',
    'docs/.gitbook.yaml': 'root: ./\nredirects:\n  old/page: guide.md\n',
    'docs/README.md': '# Docs home\n\n![logo](images/logo.png)\n',
    'docs/SUMMARY.md': '* [Docs home](README.md)\n* [Guide](guide.md)\n',
    'docs/guide.md': '# Guide\n\nText.\n',
    'docs/images/logo.png': 'not an asset: outside .gitbook/assets',
    'docs/CHANGELOG.md': '# Changes\n',
    'docs/.gitbook/assets/shot.png': 'shot',
  });

describe('a project directory', () => {
  it('reads only the docs under it', () => {
    const read = readRepository(monorepo(), undefined, { projectDirectory: 'docs' });
    expect(read.pages.map((p) => [p.title, p.path])).toEqual([
      ['Docs home', 'docs/README.md'],
      ['Guide', 'docs/guide.md'],
    ]);
    expect(read.files.map((f) => f.path)).toEqual(['docs/.gitbook/assets/shot.png']);
    expect(read.warnings).toEqual([
      'docs/CHANGELOG.md is not listed in docs/SUMMARY.md: it is not imported, and is left as it is',
    ]);
    expect(read.baseline).toMatchObject({ projectDirectory: 'docs/', root: 'docs/', summary: 'docs/SUMMARY.md' });
  });

  it('writes only under it, and never a file Folio does not know', () => {
    const repo = monorepo();
    const { space, baseline } = importTree(repo, undefined, { projectDirectory: './docs/' });
    const guide = findPage(space.pages, 'Guide');
    const home = findPage(space.pages, 'Docs home');
    let pages = editPage(space.pages, guide.id, (p) => ({ ...p, markdown: 'Text, edited.\n' }));
    pages = editPage(pages, home.id, (p) => ({ ...p, markdown: p.markdown + '\nMore.\n' }));
    // New pages whose GitBook paths are taken by files Folio does not know go beside them.
    pages = [
      ...pages,
      page('c', 'Changelog', 'Ours.\n', { slug: 'changelog' }),
      page('s', 'Src', 'x\n', { slug: 'images' }),
    ];
    const { changes } = writeRepository({ pages, files: space.files }, baseline, repo, { projectDirectory: 'docs' });
    expect(changesAsText(changes)).toEqual({
      'docs/guide.md': '# Guide\n\nText, edited.\n',
      'docs/README.md': '# Docs home\n\n![logo](images/logo.png)\n\nMore.\n',
      'docs/changelog.md': '# Changelog\n\nOurs.\n',
      'docs/images.md': '# Src\n\nx\n',
      'docs/SUMMARY.md':
        '* [Docs home](README.md)\n* [Guide](guide.md)\n* [Changelog](changelog.md)\n* [Src](images.md)\n',
    });
    for (const path of changes.keys()) expect(path.startsWith('docs/')).toBe(true);
  });

  it('never deletes what Folio did not write, even when pages go', () => {
    const repo = monorepo();
    const { space, baseline } = importTree(repo, undefined, { projectDirectory: 'docs' });
    const pages = removePage(space.pages, findPage(space.pages, 'Guide').id);
    const { changes } = writeRepository({ pages, files: space.files }, baseline, repo, { projectDirectory: 'docs' });
    expect(changesAsText(changes)).toEqual({ 'docs/guide.md': null, 'docs/SUMMARY.md': '* [Docs home](README.md)\n' });
    // A file Folio deleted is an asset it knew: that one goes.
    const noFiles = writeRepository({ pages, files: [] }, baseline, repo, { projectDirectory: 'docs' });
    expect(noFiles.changes.get('docs/.gitbook/assets/shot.png')).toBeNull();
  });

  it('a first export into a tree Folio never read lays out the docs under the project directory, beside the rest', () => {
    const repo = tree({ 'README.md': '# App\n', 'src/index.ts': '' });
    const { changes } = writeRepository({ pages: [page('h', 'Home', 'Hi\n')], files: [] }, undefined, repo, {
      projectDirectory: 'docs',
    });
    expect(changesAsText(changes)).toEqual({
      'docs/README.md': '# Home\n\nHi\n',
      'docs/SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n',
    });
  });

  it('refuses a project directory outside the repository', () => {
    expect(() => readRepository(new Map(), undefined, { projectDirectory: '../elsewhere' })).toThrow(
      /outside the repository/,
    );
  });
});

describe('files Folio does not know, without a project directory', () => {
  it('stay untouched through edits, moves and deletions, and are never taken by new pages', () => {
    const repo = tree({
      'README.md': '# Home\n',
      'SUMMARY.md': '* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Step](guide/step.md)\n',
      'guide/README.md': '# Guide\n',
      'guide/step.md': '# Step\n',
      'guide/diagram.svg': '<svg/>',
      'guide/notes.md': 'unlisted\n',
      'step.md': 'unlisted, at the path a moved page would want\n',
      '.github/workflows/ci.yml': 'on: push\n',
    });
    const { space, baseline } = importTree(repo);
    const step = findPage(space.pages, 'Step');
    const pages = [...removePage(space.pages, step.id), step, page('n', 'Notes', '', { slug: 'notes' })];
    const { changes } = writeRepository({ pages, files: [] }, baseline, repo);
    const next = applyChanges(repo, changes);
    for (const path of ['guide/diagram.svg', 'guide/notes.md', 'step.md', '.github/workflows/ci.yml'])
      expect(next.get(path)).toEqual(repo.get(path));
    expect(Object.keys(changesAsText(changes)).sort()).toEqual([
      'SUMMARY.md',
      'guide/step.md',
      'notes.md',
      'step-2.md',
    ]);
  });
});
