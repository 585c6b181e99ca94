import { createHash } from 'node:crypto';
import {
  bindIds,
  readRepository,
  type Baseline,
  type RepoFile,
  type RepoPage,
  type SpaceContent,
  type SpaceFile,
  type SpacePage,
} from '../../sync-server/git-sync/layout';

/**
 * Test helpers for the Git layout codec: trees as plain objects, the caller's part of a sync
 * (create the pages a read found, bind their ids), and repositories in GitBook's format and in
 * another formatter's style.
 */

export type Tree = Map<string, Uint8Array>;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export function tree(files: Record<string, string | Uint8Array>): Tree {
  return new Map(Object.entries(files).map(([path, v]) => [path, typeof v === 'string' ? encoder.encode(v) : v]));
}

export const textOf = (t: ReadonlyMap<string, Uint8Array | null>, path: string): string | undefined => {
  const bytes = t.get(path);
  return bytes ? decoder.decode(bytes) : undefined;
};

/** The tree after a commit of `changes`. */
export function applyChanges(t: Tree, changes: ReadonlyMap<string, Uint8Array | null>): Tree {
  const next = new Map(t);
  for (const [path, bytes] of changes) {
    if (bytes === null) next.delete(path);
    else next.set(path, bytes);
  }
  return next;
}

/** The changes as readable text (deletions as null), for assertions. */
export function changesAsText(changes: ReadonlyMap<string, Uint8Array | null>): Record<string, string | null> {
  return Object.fromEntries([...changes].map(([p, b]) => [p, b === null ? null : decoder.decode(b)]));
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export function spaceFile(id: string, name: string, bytes: Uint8Array): SpaceFile {
  return { id, name, sha256: sha256(bytes), bytes: () => bytes };
}

let counter = 0;
/** A fresh id, as Folio would mint one. */
export const newId = (prefix = 'id') => `${prefix}${++counter}`;

/**
 * What the sync job does after a read: it creates the pages and files the read found new (ids
 * minted here), and binds their ids into the baseline it stores. Answers the space and that baseline.
 */
export function importRead(read: { pages: RepoPage[]; files: RepoFile[]; baseline: Baseline }): {
  space: SpaceContent;
  baseline: Baseline;
} {
  const ids = new Map<string, string>();
  const toSpace = (pages: readonly RepoPage[]): SpacePage[] =>
    pages.map((p) => {
      const id = p.id ?? newId('page');
      if (!p.id) ids.set(p.key, id);
      const { key: _key, path: _path, children, ...rest } = p;
      return { ...rest, id, children: toSpace(children) };
    });
  const pages = toSpace(read.pages);
  const files = read.files.map((f) => {
    const id = f.id ?? newId('file');
    if (!f.id) ids.set(f.path, id);
    return spaceFile(id, f.name, f.bytes);
  });
  return { space: { pages, files }, baseline: bindIds(read.baseline, ids) };
}

/** Reads a tree and imports it (see importRead). */
export function importTree(t: Tree, previous?: Baseline, options?: { projectDirectory?: string }) {
  const read = readRepository(t, previous, options);
  return { ...importRead(read), read };
}

/** A page of a space, with defaults. */
export function page(id: string, title: string, markdown = '', extra: Partial<SpacePage> = {}): SpacePage {
  return {
    id,
    kind: 'document',
    title,
    slug: extra.slug ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    markdown,
    children: [],
    ...extra,
  };
}

/** Finds a page anywhere in a tree by title. */
export function findPage<T extends { title: string; children: readonly T[] }>(pages: readonly T[], title: string): T {
  for (const p of pages) {
    if (p.title === title) return p;
    const inner = findPage(p.children, title) as T | undefined;
    if (inner) return inner;
  }
  return undefined as unknown as T;
}

/** A copy of a space's page tree with one page changed. */
export function editPage(pages: readonly SpacePage[], id: string, edit: (p: SpacePage) => SpacePage): SpacePage[] {
  return pages.map((p) => (p.id === id ? edit(p) : { ...p, children: editPage(p.children, id, edit) }));
}

/** A copy without the page `id`. */
export function removePage(pages: readonly SpacePage[], id: string): SpacePage[] {
  return pages.filter((p) => p.id !== id).map((p) => ({ ...p, children: removePage(p.children, id) }));
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** A repository as GitBook's Git sync writes one: groups, nested pages, blocks, assets. */
export function gitbookRepo(): Tree {
  return tree({
    'README.md': `---
description: What Acme does
---

# Welcome

Acme makes docs.

{% hint style="info" %}
Read the [quickstart](getting-started/quickstart.md) first.
{% endhint %}
`,
    'SUMMARY.md': `# Table of contents

* [Welcome](README.md)

## Getting started

* [Quickstart](getting-started/quickstart.md)
* [Installation](getting-started/installation/README.md)
  * [Linux](getting-started/installation/linux.md)
  * [macOS](getting-started/installation/macos.md)

## Reference <a href="#reference" id="reference"></a>

* [API](reference/api.md)
* [Status page](https://status.example.com)
`,
    'getting-started/quickstart.md': `---
icon: rocket
layout:
  width: wide
---

# Quickstart

{% tabs %}
{% tab title="npm" %}
\`\`\`bash
npm install acme
\`\`\`
{% endtab %}

{% tab title="yarn" %}
\`\`\`bash
yarn add acme
\`\`\`
{% endtab %}
{% endtabs %}

<figure><img src="../.gitbook/assets/screen.png" alt=""><figcaption></figcaption></figure>

Next: [install it](installation/).
`,
    'getting-started/installation/README.md': `# Installation

Pick your system:

{% content-ref url="linux.md" %}
[linux.md](linux.md)
{% endcontent-ref %}
`,
    'getting-started/installation/linux.md': `---
hidden: true
---

# Linux

See [macOS](macos.md#homebrew) and [the API](../../reference/api.md).
`,
    'getting-started/installation/macos.md': `# macOS

## Homebrew

{% embed url="https://www.youtube.com/watch?v=abc" %}
`,
    'reference/api.md': `# API

{% openapi-operation spec="acme" path="/pets" method="get" %}
[OpenAPI acme](https://example.com/openapi.yaml)
{% endopenapi-operation %}

{% file src="../.gitbook/assets/guide.pdf" %}
`,
    '.gitbook/assets/screen.png': PNG,
    '.gitbook/assets/guide.pdf': new Uint8Array([0x25, 0x50, 0x44, 0x46]),
  });
}

/** A repository kept by another formatter: `-` lists, setext headings, hard wraps, CRLF, unknown front matter. */
export function formatterRepo(): Tree {
  return tree({
    'README.md': 'Home\r\n====\r\n\r\nThe  home page,\r\nhard-wrapped   at a narrow\r\nwidth.\r\n',
    'SUMMARY.md':
      '# Summary\n\n- [Home](README.md)\n- [Guide](guide.md)\n    - [Deep dive](guide/deep-dive.md)\n- [FAQ](faq.md)\n',
    'guide.md': `---
# kept by the team
owner: docs-team
description: "The guide"
tags: [a, b]
---

Guide
=====

Some text that was
hard-wrapped by a formatter.

* star item
* another

Sub heading
-----------

Last line without newline`,
    'guide/deep-dive.md': '# Deep dive\n\n+ plus list\n+ more\n\n<div align="center">raw html</div>\n',
    'faq.md': '# FAQ\n\n1) odd list\n2) style\n',
    '.github/workflows/ci.yml': 'on: push\n',
    'images/logo.png': PNG,
  });
}
