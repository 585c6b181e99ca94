import { describe, expect, it } from 'vitest';
import { readRepository, writeRepository, type SpaceContent } from '../../sync-server/git-sync/layout';
import {
  applyChanges,
  changesAsText,
  editPage,
  importTree,
  page,
  spaceFile,
  tree,
} from '../helpers/git-layout-fixtures';

/** A space written to a new repository, and new pages and files written to an existing one. */

/** Image bytes that read as text, for readable assertions. */
const png = (n: number) => new TextEncoder().encode(`PNG${n}`);

describe('a new repository', () => {
  it('gets README.md, SUMMARY.md and one file per page in GitBook paths; no .gitbook.yaml', () => {
    const space: SpaceContent = {
      pages: [
        page('home', 'Home', 'Welcome. Next: [the guide](/pages/guide).\n'),
        page('guide', 'The Guide', 'Read [step two](/pages/step2#details), see ![shot](/files/shot).\n', {
          slug: 'guide',
          children: [
            page('step1', 'Step one', 'One.\n'),
            page('step2', 'Step two', 'Back to [the guide](/pages/guide).\n'),
          ],
        }),
      ],
      files: [spaceFile('shot', 'screen shot.png', png(1))],
    };
    const { changes } = writeRepository(space, undefined, new Map());
    expect(changesAsText(changes)).toEqual({
      'README.md': '# Home\n\nWelcome. Next: [the guide](guide/README.md).\n',
      'guide/README.md':
        '# The Guide\n\nRead [step two](step-two.md#details), see ![shot](../.gitbook/assets/screen%20shot.png).\n',
      'guide/step-one.md': '# Step one\n\nOne.\n',
      'guide/step-two.md': '# Step two\n\nBack to [the guide](README.md).\n',
      '.gitbook/assets/screen shot.png': 'PNG1',
      'SUMMARY.md':
        '# Table of contents\n\n* [Home](README.md)\n* [The Guide](guide/README.md)\n  * [Step one](guide/step-one.md)\n  * [Step two](guide/step-two.md)\n',
    });
  });

  it('writes nothing for an empty space', () => {
    expect(writeRepository({ pages: [], files: [] }, undefined, new Map()).changes.size).toBe(0);
  });

  it('makes paths unique: same slugs, same file names', () => {
    const space: SpaceContent = {
      pages: [
        page('a', 'Home', ''),
        page('b', 'Notes', 'x\n', { slug: 'notes' }),
        page('c', 'Notes', 'y\n', { slug: 'notes' }),
      ],
      files: [spaceFile('f1', 'image.png', png(1)), spaceFile('f2', 'image.png', png(2))],
    };
    const { changes } = writeRepository(space, undefined, new Map());
    expect([...changes.keys()].sort()).toEqual([
      '.gitbook/assets/image-2.png',
      '.gitbook/assets/image.png',
      'README.md',
      'SUMMARY.md',
      'notes-2.md',
      'notes.md',
    ]);
  });
});

describe('new pages and files in an existing repository', () => {
  it('go to GitBook paths beside the files Folio does not know, which stay untouched', () => {
    const repo = tree({
      'README.md': '# Home\n',
      'SUMMARY.md': '* [Home](README.md)\n',
      'notes.md': 'A file SUMMARY.md does not list.\n',
      '.gitbook/assets/logo.png': png(9),
    });
    const { space, baseline } = importTree(repo);
    const pages = [...space.pages, page('n', 'Notes', 'With ![logo](/files/logo-id) and ![new](/files/new-id)\n')];
    const files = [...space.files.map((f) => ({ ...f, id: 'logo-id' })), spaceFile('new-id', 'logo.png', png(3))];
    const bound = { ...baseline, files: baseline.files.map((f) => ({ ...f, id: 'logo-id' })) };
    const { changes } = writeRepository({ pages, files }, bound, repo);
    expect(changesAsText(changes)).toEqual({
      'notes-2.md': '# Notes\n\nWith ![logo](.gitbook/assets/logo.png) and ![new](.gitbook/assets/logo-2.png)\n',
      '.gitbook/assets/logo-2.png': 'PNG3',
      'SUMMARY.md': '* [Home](README.md)\n* [Notes](notes-2.md)\n',
    });
  });

  it('adds a page to a repository without SUMMARY.md by writing one', () => {
    const repo = tree({ 'README.md': '# Home\n', 'a.md': '# A\n' });
    const { space, baseline } = importTree(repo);
    const unchanged = writeRepository(space, baseline, repo);
    expect(unchanged.changes.size).toBe(0);
    const { changes } = writeRepository({ pages: [...space.pages, page('b', 'B', 'b\n')], files: [] }, baseline, repo);
    expect(changesAsText(changes)).toEqual({
      'b.md': '# B\n\nb\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [A](a.md)\n* [B](b.md)\n',
    });
  });

  it('writes a changed file to its path, and a renamed one to its new name', () => {
    const repo = tree({ 'README.md': '# Home\n\n![](.gitbook/assets/a.png)\n', '.gitbook/assets/a.png': png(1) });
    const { space, baseline } = importTree(repo);
    const file = space.files[0]!;
    const changed = writeRepository(
      { pages: space.pages, files: [spaceFile(file.id, 'a.png', png(2))] },
      baseline,
      repo,
    );
    expect(changesAsText(changed.changes)).toEqual({ '.gitbook/assets/a.png': 'PNG2' });
    const renamed = writeRepository(
      { pages: space.pages, files: [spaceFile(file.id, 'b.png', png(1))] },
      baseline,
      repo,
    );
    // The page's by-name link on an unedited line is re-pointed to where the file went.
    expect(changesAsText(renamed.changes)).toEqual({
      '.gitbook/assets/a.png': null,
      '.gitbook/assets/b.png': 'PNG1',
      'README.md': '# Home\n\n![](.gitbook/assets/b.png)\n',
    });
    const deleted = writeRepository({ pages: space.pages, files: [] }, baseline, repo);
    expect(changesAsText(deleted.changes)).toEqual({ '.gitbook/assets/a.png': null });
  });

  it('writes links to new pages relative to the file, reading back as the same pages', () => {
    const repo = tree({ 'README.md': '# Home\n\nHello\n' });
    const { space, baseline } = importTree(repo);
    const home = space.pages[0]!;
    const pages = [
      ...editPage(space.pages, home.id, (p) => ({ ...p, markdown: 'Hello, see [deep](/pages/deep).\n' })),
      page('sec', 'Section', 'Intro\n', { children: [page('deep', 'Deep', 'Up: [home](/pages/' + home.id + ')\n')] }),
    ];
    const written = writeRepository({ pages, files: [] }, baseline, repo);
    const text = changesAsText(written.changes);
    expect(text['README.md']).toBe('# Home\n\nHello, see [deep](section/deep.md).\n');
    expect(text['section/deep.md']).toBe('# Deep\n\nUp: [home](../README.md)\n');
    const reread = readRepository(applyChanges(repo, written.changes), written.baseline);
    expect(reread.pages.map((p) => [p.id, p.markdown])).toEqual(pages.map((p) => [p.id, p.markdown]));
  });
});
