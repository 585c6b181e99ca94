import { createHash } from 'node:crypto';
import { slugify } from '../../../shared/markdown/slug';
import { keyMaker } from './baseline';
import { projectDirectoryOf, readConfig, type DocsConfig } from './config';
import { documentsOf, folderLayout, summaryLayout, type LayoutNode } from './layout-tree';
import { utf8 } from './lines';
import { baseName, dirOf, isMarkdownPath, isReadmePath } from './paths';
import { readPageBody, readPageFields } from './reader-page';
import { matchBaseline } from './reader-match';
import { parseSummaryFile } from './summary-parse';
import { folioIndex, repoIndex, type TreeNode } from './link-targets';
import { readRedirects } from './redirects';
import type { Baseline, BaselineFile, BaselinePage, LayoutOptions, RepoFile, RepoPage, RepoRedirect } from './types';

/**
 * Reads a branch's tree into Folio's pages and files (see layout-tree.ts for which files are
 * pages). With the baseline of the last sync, what did not change in the repository reads back as
 * exactly what Folio stores — same title, fields and body, line for line — so the caller's diff
 * against the space holds only what was edited in Git.
 */

export interface ReadResult {
  pages: RepoPage[];
  files: RepoFile[];
  /** Files of the baseline (with an id) that the repository no longer has. */
  deletedFiles: BaselineFile[];
  /** .gitbook.yaml's redirects, in its order. */
  redirects: RepoRedirect[];
  baseline: Baseline;
  warnings: string[];
}

/** A page while it is being read: its baseline page, its file's text, the page and baseline entry it becomes. */
interface Reading {
  key: string;
  prev?: BaselinePage;
  text?: string;
  page: RepoPage;
  base: BaselinePage;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A page's title when neither its file nor SUMMARY.md gives one: its file's (or folder's) name. */
function titleFromPath(path: string, config: DocsConfig): string {
  if (path === config.readme) return 'Introduction';
  const name = isReadmePath(path) ? baseName(dirOf(path).slice(0, -1)) : baseName(path).replace(/\.md$/i, '');
  const words = name.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Untitled';
}

/** GitBook's page slug is its file's name (a folder's name for its README). */
function slugFromPath(path: string, title: string, config: DocsConfig): string {
  const name =
    path === config.readme
      ? ''
      : isReadmePath(path)
        ? baseName(dirOf(path).slice(0, -1))
        : baseName(path).replace(/\.md$/i, '');
  return slugify(name) || slugify(title) || 'page';
}

export function readRepository(
  files: ReadonlyMap<string, Uint8Array>,
  previous: Baseline | undefined,
  options: LayoutOptions = {},
): ReadResult {
  const warnings: string[] = [];
  const config = readConfig(files, projectDirectoryOf(options.projectDirectory), warnings);
  const summaryBytes = files.get(config.summary);
  const summaryText = summaryBytes && utf8(summaryBytes);
  const parsed = summaryText === undefined ? undefined : parseSummaryFile(summaryText);
  const markdown = [...files.keys()].filter(
    (p) =>
      p.startsWith(config.root) &&
      isMarkdownPath(p) &&
      p !== config.summary &&
      !p.startsWith(`${config.root}.gitbook/`),
  );
  const layout = parsed ? summaryLayout(parsed, config, (p) => files.has(p), warnings) : folderLayout(markdown, config);
  if (parsed) {
    const pages = new Set(documentsOf(layout));
    for (const p of markdown.sort())
      if (!pages.has(p))
        warnings.push(`${p} is not listed in ${config.summary}: it is not imported, and is left as it is`);
  }
  const matched = matchBaseline(layout, previous);
  const keyOf = keyMaker();
  // Pre-order, as the baseline lists pages.
  const readings: Reading[] = [];
  const build = (nodes: readonly LayoutNode[], parent: string | undefined): RepoPage[] =>
    nodes.map((node) => {
      const reading = readNode(node, matched.get(node), parent, files, config, keyOf);
      readings.push(reading);
      reading.page.children = build(node.children, reading.key);
      return reading.page;
    });
  const pages = build(layout, undefined);

  const assets = readAssets(files, config, previous);
  decodeBodies(readings, pages, assets);
  const redirects = redirectsOf(config, readings, previous, warnings);
  const present = new Set(assets.map((a) => a.file.path));
  const deletedFiles = (previous?.files ?? []).filter((f) => f.id && !present.has(f.path));

  const baseline: Baseline = {
    version: 1,
    projectDirectory: config.projectDirectory,
    root: config.root,
    readme: config.readme,
    summary: config.summary,
    ...(summaryText !== undefined ? { summaryText } : {}),
    ...(config.configText !== undefined ? { configText: config.configText } : {}),
    pages: readings.map((r) => r.base),
    files: assets.map(({ file, sha }): BaselineFile => ({
      path: file.path,
      name: file.name,
      sha256: sha,
      ...(file.id ? { id: file.id } : {}),
    })),
  };
  return { pages, files: assets.map((a) => a.file), deletedFiles, redirects, baseline, warnings };
}

/** .gitbook.yaml's redirects with the pages they lead to; one leading to no page is said in `warnings`. */
function redirectsOf(
  config: DocsConfig,
  readings: readonly Reading[],
  previous: Baseline | undefined,
  warnings: string[],
): RepoRedirect[] {
  const byPath = new Map(readings.filter((r) => r.page.path !== undefined).map((r) => [r.page.path!, r.page]));
  const before = new Set(
    previous?.root === config.root
      ? readRedirects(previous.configText, previous.root, config.configPath, []).map((r) => `${r.from}\n${r.to}`)
      : [],
  );
  return readRedirects(config.configText, config.root, config.configPath, warnings).map((r): RepoRedirect => {
    const page = byPath.get(r.to);
    if (!page)
      warnings.push(
        `${config.configPath}: the redirect ${JSON.stringify(r.from)} leads to ${r.to}, which is no page: it is not applied`,
      );
    return {
      ...r,
      ...(page ? { page: { key: page.key, ...(page.id ? { id: page.id } : {}) } } : {}),
      known: before.has(`${r.from}\n${r.to}`),
    };
  });
}

/** One layout node read into a page (its body comes later, once every page's place is known). */
function readNode(
  node: LayoutNode,
  prev: BaselinePage | undefined,
  parent: string | undefined,
  files: ReadonlyMap<string, Uint8Array>,
  config: DocsConfig,
  keyOf: ReturnType<typeof keyMaker>,
): Reading {
  const id = prev?.id ? { id: prev.id } : {};
  const where = {
    ...(parent !== undefined ? { parent } : {}),
    ...(node.entry !== undefined ? { entry: node.entry } : {}),
    ...(node.listedTitle !== undefined ? { listedTitle: node.listedTitle } : {}),
  };
  if (node.kind !== 'document') {
    const key = keyOf(node.kind, slugify(node.listedTitle ?? ''));
    // Unchanged in SUMMARY.md, a group or link keeps the title Folio has.
    const title =
      prev && (prev.listedTitle ?? prev.title) === node.listedTitle ? prev.title : (node.listedTitle ?? 'Untitled');
    const slug = prev && prev.title === title ? prev.slug : slugify(title) || node.kind;
    const shared = {
      key,
      kind: node.kind,
      title,
      slug,
      markdown: '',
      ...(node.url !== undefined ? { href: node.url } : {}),
    };
    return {
      key,
      ...(prev ? { prev } : {}),
      page: { ...id, ...shared, children: [] },
      base: { ...id, ...where, ...shared },
    };
  }
  const path = node.path!;
  const text = utf8(files.get(path)!);
  const { title, fields } = readPageFields(path, text, node.listedTitle, prev, (p) => titleFromPath(p, config));
  // A file keeps its page's slug; a new one takes its file's name (GitBook's page path is its file's).
  const slug = prev ? prev.slug : slugFromPath(path, title, config);
  const shared = { key: path, kind: 'document' as const, title, slug, ...fields, markdown: '' };
  return {
    key: path,
    ...(prev ? { prev } : {}),
    text,
    page: { ...id, ...shared, path, children: [] },
    base: { ...id, ...where, ...shared, text },
  };
}

/** Every asset under `.gitbook/assets/`; one the baseline knows at the same path keeps its id and name. */
function readAssets(files: ReadonlyMap<string, Uint8Array>, config: DocsConfig, previous: Baseline | undefined) {
  const known = new Map((previous?.files ?? []).map((f) => [f.path, f]));
  const out: { file: RepoFile; sha: string }[] = [];
  for (const [path, bytes] of files) {
    if (!path.startsWith(config.assets) || path.endsWith('/') || path.length === config.assets.length) continue;
    const prev = known.get(path);
    const sha = sha256(bytes);
    const changed = prev?.id !== undefined && prev.sha256 !== sha;
    out.push({
      file: {
        ...(prev?.id ? { id: prev.id, baseSha256: prev.sha256 } : {}),
        name: prev?.name ?? baseName(path),
        path,
        bytes,
        ...(changed ? { changed: true as const } : {}),
      },
      sha,
    });
  }
  return out.sort((a, b) => a.file.path.localeCompare(b.file.path));
}

/** Decodes every document's body, now that the places of all pages (for links) are known. */
function decodeBodies(readings: readonly Reading[], roots: readonly RepoPage[], assets: readonly { file: RepoFile }[]) {
  // Pages and files are named by their keys here: new ones have no id yet.
  const toTree = (pages: readonly RepoPage[]): TreeNode[] =>
    pages.map((p) => ({ id: p.key, kind: p.kind, title: p.title, slug: p.slug, children: toTree(p.children) }));
  const folio = folioIndex(
    toTree(roots),
    assets.map((a) => ({ id: a.file.path, name: a.file.name })),
  );
  const repo = repoIndex(
    readings.filter((r) => r.page.path !== undefined).map((r) => [r.key, r.page.path!]),
    assets.map((a) => [a.file.path, a.file.path]),
  );
  const idOf = new Map<string, string>();
  for (const r of readings) if (r.page.id) idOf.set(r.key, r.page.id);
  for (const a of assets) if (a.file.id) idOf.set(a.file.path, a.file.id);
  for (const r of readings) {
    if (r.page.kind !== 'document') continue;
    const body = readPageBody(r.key, r.text!, r.prev, { folio, repo, idOf: (k) => idOf.get(k) });
    r.page.markdown = body.markdown;
    r.base.markdown = body.markdown;
    r.base.bodyStart = body.bodyStart;
  }
}
