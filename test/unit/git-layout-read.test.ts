import { describe, expect, it } from 'vitest';
import { readRepository } from '../../sync-server/git-sync/layout';
import { findPage, gitbookRepo, textOf, tree } from '../helpers/git-layout-fixtures';

/** Reading a repository in GitBook's layout into Folio's page tree. */

const shape = (pages: readonly { kind: string; title: string; children: readonly unknown[] }[]): unknown =>
  pages.map((p) => [p.kind, p.title, shape(p.children as typeof pages)]);

describe('readRepository on a GitBook repository', () => {
  const repo = gitbookRepo();
  const read = readRepository(repo, undefined);

  it('reads the tree SUMMARY.md describes: groups, nesting, link pages', () => {
    expect(shape(read.pages)).toEqual([
      ['document', 'Welcome', []],
      [
        'group',
        'Getting started',
        [
          ['document', 'Quickstart', []],
          [
            'document',
            'Installation',
            [
              ['document', 'Linux', []],
              ['document', 'macOS', []],
            ],
          ],
        ],
      ],
      [
        'group',
        'Reference',
        [
          ['document', 'API', []],
          ['link', 'Status page', []],
        ],
      ],
    ]);
    expect(findPage(read.pages, 'Status page').href).toBe('https://status.example.com');
    expect(read.warnings).toEqual([]);
  });

  it('takes the fields from front matter, slugs from file names, and leaves no id on new pages', () => {
    const welcome = findPage(read.pages, 'Welcome');
    expect(welcome).toMatchObject({ description: 'What Acme does', path: 'README.md', key: 'README.md' });
    expect(welcome.id).toBeUndefined();
    expect(findPage(read.pages, 'Quickstart')).toMatchObject({ icon: 'rocket', slug: 'quickstart' });
    expect(findPage(read.pages, 'Linux')).toMatchObject({ hidden: true, slug: 'linux' });
    expect(findPage(read.pages, 'Installation')).toMatchObject({
      slug: 'installation',
      path: 'getting-started/installation/README.md',
    });
  });

  it('stores bodies without front matter and title, with every GitBook block verbatim', () => {
    expect(findPage(read.pages, 'Welcome').markdown).toBe(
      'Acme makes docs.\n\n{% hint style="info" %}\nRead the [quickstart](getting-started/quickstart.md) first.\n{% endhint %}\n',
    );
    const file = (path: string) => textOf(repo, path)!;
    // Every page below has no front matter: the body is the file after its heading line and blank line.
    for (const [title, path] of [
      ['Installation', 'getting-started/installation/README.md'],
      ['macOS', 'getting-started/installation/macos.md'],
      ['API', 'reference/api.md'],
    ] as const)
      expect(findPage(read.pages, title).markdown).toBe(file(path).replace(/^# .*\n\n/, ''));
    const quickstart = findPage(read.pages, 'Quickstart').markdown;
    expect(quickstart).toContain('{% tabs %}\n{% tab title="npm" %}\n```bash\nnpm install acme\n```\n{% endtab %}');
    expect(quickstart).toContain(
      '<figure><img src="../.gitbook/assets/screen.png" alt=""><figcaption></figcaption></figure>',
    );
  });

  it('reads the assets under .gitbook/assets/ as files named by their file names', () => {
    expect(read.files.map((f) => [f.name, f.path])).toEqual([
      ['guide.pdf', '.gitbook/assets/guide.pdf'],
      ['screen.png', '.gitbook/assets/screen.png'],
    ]);
    expect(read.files[1]!.bytes).toEqual(repo.get('.gitbook/assets/screen.png'));
  });

  it('remembers the exact texts in the baseline', () => {
    expect(read.baseline.summaryText).toBe(textOf(repo, 'SUMMARY.md'));
    const linux = read.baseline.pages.find((p) => p.key === 'getting-started/installation/linux.md')!;
    expect(linux).toMatchObject({ text: textOf(repo, linux.key), kind: 'document', title: 'Linux', hidden: true });
    expect(JSON.parse(JSON.stringify(read.baseline))).toEqual(read.baseline);
  });
});

describe('readRepository decisions', () => {
  it('imports only what SUMMARY.md lists (and the readme), and warns about the rest', () => {
    const read = readRepository(
      tree({
        'SUMMARY.md': '* [Guide](guide.md)\n* [Gone](gone.md)\n',
        'README.md': '# Home\n',
        'guide.md': '# Guide\n',
        'CONTRIBUTING.md': '# Contributing\n',
        'drafts/idea.md': '# Idea\n',
        '.gitbook/includes/snippet.md': 'reusable\n',
      }),
      undefined,
    );
    expect(shape(read.pages)).toEqual([
      ['document', 'Home', []],
      ['document', 'Guide', []],
    ]);
    expect(read.warnings).toEqual([
      'SUMMARY.md line 2: gone.md is not in the repository; the entry is skipped and left as written',
      'CONTRIBUTING.md is not listed in SUMMARY.md: it is not imported, and is left as it is',
      'drafts/idea.md is not listed in SUMMARY.md: it is not imported, and is left as it is',
    ]);
  });

  it('takes the title from the heading, else SUMMARY.md, else the file name; setext headings count', () => {
    const read = readRepository(
      tree({
        'SUMMARY.md': '* [Listed](README.md)\n* [From summary](a.md)\n* [Ignored](b.md)\n',
        'README.md': 'Setext title\n============\n\nBody\n',
        'a.md': 'No heading here.\n',
        'b.md': '---\ntitle: From front matter\n---\n# Heading\n\nText\n',
      }),
      undefined,
    );
    expect(read.pages.map((p) => [p.title, p.markdown])).toEqual([
      ['Setext title', 'Body\n'],
      ['From summary', 'No heading here.\n'],
      ['From front matter', 'Text\n'],
    ]);
  });

  it('follows .gitbook.yaml: root, structure.readme and structure.summary', () => {
    const read = readRepository(
      tree({
        '.gitbook.yaml': 'root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc/contents.md\n',
        'docs/intro.md': '# Intro\n',
        'docs/toc/contents.md': '* [Usage](../usage.md)\n',
        'docs/usage.md': '# Usage\n',
        'README.md': '# The code repository\n',
      }),
      undefined,
    );
    expect(read.pages.map((p) => [p.title, p.path])).toEqual([
      ['Intro', 'docs/intro.md'],
      ['Usage', 'docs/usage.md'],
    ]);
    expect(read.baseline).toMatchObject({ root: 'docs/', readme: 'docs/intro.md', summary: 'docs/toc/contents.md' });
  });

  it('without SUMMARY.md, reads the folders: README.md first, a folder README holding its folder', () => {
    const read = readRepository(
      tree({
        'README.md': '# Home\n',
        'b.md': '# B\n',
        'a.md': '# A\n',
        'guide/README.md': '# Guide\n',
        'guide/step.md': '# Step\n',
      }),
      undefined,
    );
    expect(shape(read.pages)).toEqual([
      ['document', 'Home', []],
      ['document', 'A', []],
      ['document', 'B', []],
      ['document', 'Guide', [['document', 'Step', []]]],
    ]);
  });

  it('reads a nested SUMMARY.md whose groups hold nested pages, and keeps pages before the first group at the root', () => {
    const read = readRepository(
      tree({
        'SUMMARY.md':
          '# Contents\n\n* [Home](README.md)\n* [About](about.md)\n\n## Part one\n\n* [One](one/README.md)\n  * [Two](one/two/README.md)\n    * [Three](one/two/three.md)\n\n## Part two\n\n* [Four](four.md)\n',
        'README.md': '# Home\n',
        'about.md': '# About\n',
        'one/README.md': '# One\n',
        'one/two/README.md': '# Two\n',
        'one/two/three.md': '# Three\n',
        'four.md': '# Four\n',
      }),
      undefined,
    );
    expect(shape(read.pages)).toEqual([
      ['document', 'Home', []],
      ['document', 'About', []],
      ['group', 'Part one', [['document', 'One', [['document', 'Two', [['document', 'Three', []]]]]]]],
      ['group', 'Part two', [['document', 'Four', []]]],
    ]);
  });
});
