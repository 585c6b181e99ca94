import { describe, expect, it } from 'vitest';
import { readRepository, writeRepository } from '../../sync-server/git-sync/layout';
import {
  findPage,
  formatterRepo,
  gitbookRepo,
  importRead,
  importTree,
  textOf,
  tree,
} from '../helpers/git-layout-fixtures';

/**
 * Reading a repository edited in Git against the baseline: what Git did not change reads back as
 * what Folio stores, so the import applies only the edits made in Git.
 */

const edit = (t: Map<string, Uint8Array>, path: string, fn: (text: string) => string) => {
  const next = new Map(t);
  next.set(path, new TextEncoder().encode(fn(textOf(t, path)!)));
  return next;
};

describe('a read after edits in Git', () => {
  it('keeps the stored form of the lines Git did not touch, and decodes the edited ones', () => {
    const repo = gitbookRepo();
    const { space, baseline } = importTree(repo);
    const quickstartId = findPage(space.pages, 'Quickstart').id!;
    const apiId = findPage(space.pages, 'API').id!;
    // Folio stores a canonical link on one line (as if written in the app), and the baseline knows it.
    const quick = baseline.pages.find((p) => p.id === quickstartId)!;
    quick.markdown = quick.markdown.replace('[install it](installation/)', `[install it](/pages/${apiId})`);
    const edited = edit(repo, 'getting-started/quickstart.md', (t) =>
      t.replace('npm install acme', 'npm install acme@2').concat('\nSee [the API](../reference/api.md).\n'),
    );
    const read = readRepository(edited, baseline);
    const body = findPage(read.pages, 'Quickstart').markdown;
    // The untouched line keeps Folio's form; the new line's link reads the same in Folio: as written.
    expect(body).toContain(`[install it](/pages/${apiId})`);
    expect(body).toContain('npm install acme@2');
    expect(body.endsWith('\nSee [the API](../reference/api.md).\n')).toBe(true);
    expect(read.baseline.pages.find((p) => p.id === quickstartId)!.text).toBe(
      textOf(edited, 'getting-started/quickstart.md'),
    );
  });

  it('turns a new link into /pages/<id> where Folio would read it otherwise', () => {
    const repo = tree({
      'SUMMARY.md': '* [Home](README.md)\n* [Odd](files/odd-name.md)\n',
      'README.md': '# Home\n\nHi\n',
      'files/odd-name.md': '# Odd\n',
    });
    const { space, baseline } = importTree(repo);
    const odd = findPage(space.pages, 'Odd');
    // Folio's path for that page is `odd-name`, not `files/odd-name`: the relative link needs the id.
    const read = readRepository(
      edit(repo, 'README.md', (t) => `${t}[odd](files/odd-name.md#part)\n`),
      baseline,
    );
    expect(read.pages[0]!.markdown).toBe(`Hi\n[odd](/pages/${odd.id}#part)\n`);
  });

  it('reports as changed only the fields Git changed', () => {
    const repo = formatterRepo();
    const { space, baseline } = importTree(repo);
    const guide = findPage(space.pages, 'Guide');
    // Folio's own value of an unchanged key is kept (here: a description Folio wrote differently).
    baseline.pages.find((p) => p.id === guide.id)!.description = 'The guide, as Folio has it';
    const read = readRepository(
      edit(repo, 'guide.md', (t) =>
        t.replace('owner: docs-team\n', 'owner: docs-team\nhidden: true\n').replace('Guide\n=====', 'Handbook\n====='),
      ),
      baseline,
    );
    expect(findPage(read.pages, 'Handbook')).toMatchObject({
      id: guide.id,
      description: 'The guide, as Folio has it',
      hidden: true,
      markdown: guide.markdown,
    });
  });

  it('reads a file renamed in Git as a new page, and its old page as gone', () => {
    const repo = formatterRepo();
    const { space, baseline } = importTree(repo);
    const faq = findPage(space.pages, 'FAQ');
    const moved = new Map(repo);
    moved.set('questions.md', repo.get('faq.md')!);
    moved.delete('faq.md');
    moved.set('SUMMARY.md', new TextEncoder().encode(textOf(repo, 'SUMMARY.md')!.replace('faq.md', 'questions.md')));
    const read = readRepository(moved, baseline);
    const page = findPage(read.pages, 'FAQ');
    expect(page.id).toBeUndefined();
    expect(page.markdown).toBe(faq.markdown);
    expect(read.pages.map((p) => p.id).filter(Boolean)).toEqual(
      space.pages.filter((p) => p.id !== faq.id).map((p) => p.id),
    );
  });

  it('keeps the ids of groups and links through a rename in Git', () => {
    const repo = gitbookRepo();
    const { space, baseline } = importTree(repo);
    const group = findPage(space.pages, 'Getting started');
    const link = findPage(space.pages, 'Status page');
    const read = readRepository(
      edit(repo, 'SUMMARY.md', (t) =>
        t.replace('## Getting started', '## First steps').replace('[Status page]', '[Status]'),
      ),
      baseline,
    );
    expect(findPage(read.pages, 'First steps').id).toBe(group.id);
    expect(findPage(read.pages, 'Status')).toMatchObject({ id: link.id, href: 'https://status.example.com' });
    // And writing the space as it now is changes nothing more.
    const { space: after, baseline: next } = importRead(read);
    expect(writeRepository(after, next, undefined).changes.size).toBe(0);
  });
});
