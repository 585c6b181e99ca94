import { diffArrays } from 'diff';
import { describe, expect, it } from 'vitest';
import { readRepository, writeRepository } from '../../sync-server/git-sync/layout';
import {
  applyChanges,
  editPage,
  findPage,
  formatterRepo,
  importTree,
  textOf,
  tree,
} from '../helpers/git-layout-fixtures';

/**
 * A repository kept in another formatter's style is written back byte-identical where Folio did
 * not edit, and an edited page differs only on the lines the edit touched.
 */

/** The lines removed from `before` and added in `after`, line endings included. */
function lineChanges(before: string, after: string) {
  const split = (s: string) => s.split(/(?<=\n)/);
  const out = { removed: [] as string[], added: [] as string[] };
  for (const c of diffArrays(split(before), split(after))) {
    if (c.removed) out.removed.push(...c.value);
    if (c.added) out.added.push(...c.value);
  }
  return out;
}

describe("a repository in another formatter's style", () => {
  const repo = formatterRepo();
  const { space, baseline } = importTree(repo);

  it('is written back untouched but for the one page edited in Folio', () => {
    const guide = findPage(space.pages, 'Guide');
    const pages = editPage(space.pages, guide.id, (p) => ({
      ...p,
      markdown: p.markdown.replace('* another\n', '* another, edited\n'),
    }));
    const { changes } = writeRepository({ pages, files: space.files }, baseline, repo);
    expect([...changes.keys()]).toEqual(['guide.md']);
    const before = textOf(repo, 'guide.md')!;
    const after = textOf(changes, 'guide.md')!;
    expect(lineChanges(before, after)).toEqual({ removed: ['* another\n'], added: ['* another, edited\n'] });
    // The last line still has no newline.
    expect(after.endsWith('Last line without newline')).toBe(true);
  });

  it('keeps CRLF, hard wraps and double spaces of an edited CRLF page, changing one line', () => {
    const home = findPage(space.pages, 'Home');
    const pages = editPage(space.pages, home.id, (p) => ({
      ...p,
      markdown: p.markdown.replace('width.\n', 'width, now longer.\nAnd a new line.\n'),
    }));
    const { changes } = writeRepository({ pages, files: space.files }, baseline, repo);
    expect([...changes.keys()]).toEqual(['README.md']);
    expect(textOf(changes, 'README.md')).toBe(
      'Home\r\n====\r\n\r\nThe  home page,\r\nhard-wrapped   at a narrow\r\nwidth, now longer.\r\nAnd a new line.\r\n',
    );
  });

  it('changes only its own front-matter key for a changed field, keeping comments, order and unknown keys', () => {
    const guide = findPage(space.pages, 'Guide');
    const pages = editPage(space.pages, guide.id, (p) => ({ ...p, description: 'A better guide', hidden: true }));
    const { changes } = writeRepository({ pages, files: space.files }, baseline, repo);
    expect([...changes.keys()]).toEqual(['guide.md']);
    expect(lineChanges(textOf(repo, 'guide.md')!, textOf(changes, 'guide.md')!)).toEqual({
      removed: ['description: "The guide"\n'],
      added: ['description: A better guide\n', 'hidden: true\n'],
    });
  });

  it('rewrites only the heading line for a changed title (a setext heading keeps its underline), and its SUMMARY.md entry', () => {
    const guide = findPage(space.pages, 'Guide');
    const pages = editPage(space.pages, guide.id, (p) => ({ ...p, title: 'User guide' }));
    const { changes } = writeRepository({ pages, files: space.files }, baseline, repo);
    expect([...changes.keys()].sort()).toEqual(['SUMMARY.md', 'guide.md']);
    expect(lineChanges(textOf(repo, 'guide.md')!, textOf(changes, 'guide.md')!)).toEqual({
      removed: ['Guide\n'],
      added: ['User guide\n'],
    });
    expect(lineChanges(textOf(repo, 'SUMMARY.md')!, textOf(changes, 'SUMMARY.md')!)).toEqual({
      removed: ['- [Guide](guide.md)\n'],
      added: ['- [User guide](guide.md)\n'],
    });
  });

  it('removes a field by removing its key alone', () => {
    const guide = findPage(space.pages, 'Guide');
    const pages = editPage(space.pages, guide.id, (p) => ({ ...p, description: undefined }));
    const { changes } = writeRepository({ pages, files: space.files }, baseline, repo);
    expect(lineChanges(textOf(repo, 'guide.md')!, textOf(changes, 'guide.md')!)).toEqual({
      removed: ['description: "The guide"\n'],
      added: [],
    });
  });

  it('gives a page without a heading a heading line only when its title has nowhere else to go', () => {
    const bare = tree({ 'README.md': 'Just text.\n', 'notes.md': 'More text.\n' });
    const imported = importTree(bare);
    const notes = findPage(imported.space.pages, 'Notes');
    const pages = editPage(imported.space.pages, notes.id, (p) => ({ ...p, title: 'Field notes' }));
    const { changes } = writeRepository({ pages, files: [] }, imported.baseline, bare);
    expect(textOf(changes, 'notes.md')).toBe('# Field notes\n\nMore text.\n');
    expect(changes.has('SUMMARY.md')).toBe(false);
  });

  it('does not let a body that now starts with a heading steal the title of a page that had none', () => {
    const listed = tree({ 'SUMMARY.md': '* [Listed title](README.md)\n', 'README.md': 'Text.\n' });
    const imported = importTree(listed);
    const home = imported.space.pages[0]!;
    expect(home.title).toBe('Listed title');
    const pages = editPage(imported.space.pages, home.id, (p) => ({ ...p, markdown: '# Not the title\n\nText.\n' }));
    const { changes } = writeRepository({ pages, files: [] }, imported.baseline, listed);
    expect(textOf(changes, 'README.md')).toBe('# Listed title\n\n# Not the title\n\nText.\n');
  });

  it('applies an edit onto a file the repository changed since the last sync, keeping both edits', () => {
    const guide = findPage(space.pages, 'Guide');
    const pushed = new Map(repo).set(
      'guide.md',
      new TextEncoder().encode(textOf(repo, 'guide.md')!.replace('* star item', '* star item, pushed')),
    );
    const pages = editPage(space.pages, guide.id, (p) => ({
      ...p,
      markdown: p.markdown.replace('Sub heading', 'Subheading'),
    }));
    const { changes, baseline: next } = writeRepository({ pages, files: space.files }, baseline, pushed);
    const written = textOf(changes, 'guide.md')!;
    expect(written).toContain('* star item, pushed\n');
    expect(written).toContain('Subheading\n-----------');
    // The baseline holds Folio's side: the next read reports the pushed line as the repository's edit.
    const read = readRepository(applyChanges(pushed, changes), next);
    expect(findPage(read.pages, 'Guide').markdown).toBe(
      findPage(pages, 'Guide').markdown.replace('* star item', '* star item, pushed'),
    );
  });
});
