import { describe, expect, it } from 'vitest';
import { readRepository, writeRepository } from '../../sync-server/git-sync/layout';
import { changesAsText, editPage, findPage, importTree, page, tree } from '../helpers/git-layout-fixtures';

/** Links between pages and to files, read from the repository's relative paths and written back to them. */

const repo = () =>
  tree({
    'SUMMARY.md':
      '* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n* [Ref](docs/ref.md)\n',
    'README.md': '# Home\n',
    'guide/README.md': '# Guide\n',
    'guide/install.md': '# Install\n',
    'docs/ref.md': '# Ref\n',
    '.gitbook/assets/a b.png': 'img',
  });

describe('links read from files', () => {
  it('resolve relative, ../ and folder links to the right page once it has an id, and stay as written where Folio agrees', () => {
    const base = repo();
    const { space, baseline } = importTree(base);
    const id = (title: string) => findPage(space.pages, title).id;
    const next = new Map(base);
    next.set(
      'guide/install.md',
      new TextEncoder().encode(
        '# Install\n\n[a](../README.md) [b](./README.md#top) [c](../guide/) [d](../docs/ref.md) [e](<../.gitbook/assets/a b.png>)\n' +
          '`[code](../docs/ref.md)`\n```\n[fenced](../docs/ref.md)\n```\n[f](https://x.test/y.md) [g](#local) [h](missing.md)\n',
      ),
    );
    const read = readRepository(next, baseline);
    expect(findPage(read.pages, 'Install').markdown).toBe(
      // Folio's paths: home, guide, guide/install, ref (its file is under docs/, its Folio path is not).
      `[a](../README.md) [b](./README.md#top) [c](../guide/) [d](/pages/${id('Ref')}) [e](<../.gitbook/assets/a b.png>)\n` +
        '`[code](../docs/ref.md)`\n```\n[fenced](../docs/ref.md)\n```\n[f](https://x.test/y.md) [g](#local) [h](missing.md)\n',
    );
  });
});

describe('links written to files', () => {
  it('become relative paths from the page file: /pages/<id> (with anchor), /files/<id>, in HTML and block tags too', () => {
    const base = repo();
    const { space, baseline } = importTree(base);
    const id = (title: string) => findPage(space.pages, title).id;
    const file = space.files[0]!.id;
    const pages = editPage(space.pages, id('Install'), (p) => ({
      ...p,
      markdown:
        `[home](/pages/${id('Home')}) [guide](/pages/${id('Guide')}#intro) [self](/pages/${id('Install')}#x) [ref](/pages/${id('Ref')})\n` +
        `![img](/files/${file}) <img src="/files/${file}">\n` +
        `{% content-ref url="/pages/${id('Ref')}" %}\n[ref](/pages/${id('Ref')})\n{% endcontent-ref %}\n` +
        `\`/pages/${id('Ref')}\` and [by path](../docs/ref.md) [gone](/pages/nope)\n`,
    }));
    const { changes } = writeRepository({ pages, files: space.files }, baseline, base);
    expect(changesAsText(changes)).toEqual({
      'guide/install.md':
        '# Install\n\n' +
        '[home](../README.md) [guide](README.md#intro) [self](#x) [ref](../docs/ref.md)\n' +
        '![img](../.gitbook/assets/a%20b.png) <img src="../.gitbook/assets/a%20b.png">\n' +
        '{% content-ref url="../docs/ref.md" %}\n[ref](../docs/ref.md)\n{% endcontent-ref %}\n' +
        `\`/pages/${id('Ref')}\` and [by path](../docs/ref.md) [gone](/pages/nope)\n`,
    });
  });

  it('of a moved page are re-pointed on lines Folio did not edit, and only there', () => {
    const base = tree({
      'SUMMARY.md': '* [Home](README.md)\n* [A](a.md)\n* [B](b.md)\n',
      'README.md': '# Home\n\nTo [a](a.md), [b](b.md#s) and ![](.gitbook/assets/x.png).\n',
      'a.md': '# A\n\n[Home](README.md) · [B](./b.md)\n',
      'b.md': '# B\n',
      '.gitbook/assets/x.png': 'x',
    });
    const { space, baseline } = importTree(base);
    const a = findPage(space.pages, 'A');
    const b = findPage(space.pages, 'B');
    // B goes under A: b.md -> a/b.md; A gains a child but keeps its file.
    const pages = editPage(
      space.pages.filter((p) => p.id !== b.id),
      a.id,
      (p) => ({ ...p, children: [b] }),
    );
    const { changes } = writeRepository({ pages, files: space.files }, baseline, base);
    expect(changesAsText(changes)).toEqual({
      'b.md': null,
      'a/b.md': '# B\n',
      'README.md': '# Home\n\nTo [a](a.md), [b](a/b.md#s) and ![](.gitbook/assets/x.png).\n',
      'a.md': '# A\n\n[Home](README.md) · [B](a/b.md)\n',
      'SUMMARY.md': '* [Home](README.md)\n* [A](a.md)\n  * [B](a/b.md)\n',
    });
  });

  it('from a new page to a new page are relative to each other', () => {
    const { changes } = writeRepository(
      {
        pages: [
          page('h', 'Home', '[deep](/pages/d)\n'),
          page('s', 'Sec', '', { children: [page('d', 'Deep', '[up](/pages/h)\n')] }),
        ],
        files: [],
      },
      undefined,
      new Map(),
    );
    expect(changesAsText(changes)).toMatchObject({
      'README.md': '# Home\n\n[deep](sec/deep.md)\n',
      'sec/deep.md': '# Deep\n\n[up](../README.md)\n',
    });
  });
});
