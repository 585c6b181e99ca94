import { applyPatch, structuredPatch } from 'diff';
import { configOfBaseline, projectDirectoryOf, readConfig } from './config';
import { folioIndex, repoIndex } from './link-targets';
import { bytesOf, sameBytes, utf8 } from './lines';
import { editedPageText, newPageText, type PageLinks } from './writer-page';
import { planLayout, type Plan, type PlannedPage } from './writer-plan';
import { planSummary } from './writer-summary';
import { addRedirects, hasRedirectsMap, urlPathOf } from './redirects';
import type { DocsConfig } from './config';
import type { Baseline, BaselineFile, BaselinePage, LayoutOptions, PageFields, SpaceContent, SpacePage } from './types';

/**
 * What to commit so that the repository holds the space: only the paths that change (bytes, or
 * null to delete) and the baseline to keep for the next sync. Pages nobody edited are not written
 * at all; edited pages change only the lines their edits touched (writer-page.ts); files Folio
 * does not know — outside the project directory, outside `.gitbook/assets/`, or markdown that
 * SUMMARY.md does not list — are never written or deleted. Decisions:
 * - `current`, the branch as last read, is how the writer knows which paths are taken by files
 *   Folio does not know; without it, only the baseline's paths are known to be taken;
 * - without a baseline, the tree is Folio's to lay out: README.md and SUMMARY.md are written
 *   over whatever holds those paths, every other new path avoids existing files;
 * - when a page's file changed in the repository since the baseline and Folio edited the page
 *   too, Folio's edit is applied as a patch onto the repository's text when it applies cleanly
 *   (else Folio's text wins; the caller detects such conflicts before writing, from the read);
 * - a page whose file moves (Folio moved it or changed its slug) gets a redirect from its old URL
 *   path to its new file in `.gitbook.yaml` — only when that file already has a `redirects` map:
 *   GitBook adds redirects only when asked, and a repository that has none has not asked. Existing
 *   redirects are never changed or dropped (redirects.ts).
 */

export interface WriteResult {
  changes: Map<string, Uint8Array | null>;
  baseline: Baseline;
}

const FIELDS = ['description', 'icon', 'emoji'] as const;

/** Whether a page's title, fields and body are what the baseline has. */
function unchanged(page: SpacePage, prev: BaselinePage): boolean {
  return (
    page.title === prev.title &&
    page.markdown === prev.markdown &&
    !!page.hidden === !!prev.hidden &&
    FIELDS.every((f) => (page[f] ?? '') === (prev[f] ?? ''))
  );
}

const fieldsOf = (page: PageFields): PageFields => ({
  ...(page.description ? { description: page.description } : {}),
  ...(page.icon ? { icon: page.icon } : {}),
  ...(page.emoji ? { emoji: page.emoji } : {}),
  ...(page.hidden ? { hidden: true } : {}),
});

/** Folio's edit of `base` into `ours`, applied onto the repository's own newer text when it applies. */
function mergeOnto(repoText: string, base: string, ours: string): string {
  if (repoText === base) return ours;
  // No context lines: an edit next to a line the repository changed still applies (the removed
  // lines themselves must match, so an edit of the very lines the repository changed does not).
  const patched = applyPatch(repoText, structuredPatch('a', 'b', base, ours, '', '', { context: 0 }));
  return patched === false ? ours : patched;
}

/** The link indexes: Folio's reading, where things are now and where they were at the baseline. */
function linksOf(content: SpaceContent, plan: Plan): PageLinks {
  const documents = plan.pages.filter((p) => p.path !== undefined);
  const strangers = plan.strangers.filter((s) => s.kind === 'document').map((s): [string, string] => [s.key, s.key]);
  const strangerFiles = plan.strangerFiles.map((f): [string, string] => [f.path, f.path]);
  return {
    folio: folioIndex(content.pages, content.files),
    now: repoIndex(
      [...documents.map((p): [string, string] => [p.page.id, p.path!]), ...strangers],
      [...plan.files.map((f): [string, string] => [f.file.id, f.path]), ...strangerFiles],
    ),
    before: repoIndex(
      [...documents.filter((p) => p.oldPath).map((p): [string, string] => [p.page.id, p.oldPath!]), ...strangers],
      [...plan.files.filter((f) => f.prev).map((f): [string, string] => [f.file.id, f.prev!.path]), ...strangerFiles],
    ),
    moved:
      plan.pages.some((p) => p.oldPath !== undefined && p.path !== p.oldPath) ||
      plan.files.some((f) => f.prev !== undefined && f.prev.path !== f.path),
  };
}

export function writeRepository(
  content: SpaceContent,
  previous: Baseline | undefined,
  current: ReadonlyMap<string, Uint8Array> | undefined,
  options: LayoutOptions = {},
): WriteResult {
  const projectDirectory = projectDirectoryOf(options.projectDirectory ?? previous?.projectDirectory);
  // A baseline of another project directory describes other paths: the space is laid out anew.
  const base = previous?.projectDirectory === projectDirectory ? previous : undefined;
  const config = base ? configOfBaseline(base) : readConfig(current ?? new Map(), projectDirectory, []);
  const plan = planLayout(content, base, current, config);
  const links = linksOf(content, plan);
  const summary = planSummary(plan, base, config);

  const changes = new Map<string, Uint8Array | null>();
  const put = (path: string, bytes: Uint8Array) => {
    const there = current?.get(path);
    if (!there || !sameBytes(there, bytes)) changes.set(path, bytes);
  };
  const remove = (path: string) => {
    if (!current || current.has(path)) changes.set(path, null);
  };

  const pages: BaselinePage[] = [];
  for (const p of plan.pages) pages.push(writePage(p, current, links, summary, put));

  // Old paths go last, so a path one page leaves and another takes is written, not deleted.
  const taken = new Set(plan.pages.map((p) => p.path).filter((p) => p !== undefined));
  for (const p of plan.pages)
    if (p.prev?.kind === 'document' && p.prev.key !== p.path && !taken.has(p.prev.key)) remove(p.prev.key);
  for (const d of plan.deletedPages) if (d.kind === 'document' && !taken.has(d.key)) remove(d.key);

  const assetPaths = new Set(plan.files.map((f) => f.path));
  const files: BaselineFile[] = [];
  for (const f of plan.files) {
    if (!f.prev || f.prev.sha256 !== f.file.sha256 || f.prev.path !== f.path) put(f.path, f.file.bytes());
    if (f.prev && f.prev.path !== f.path && !assetPaths.has(f.prev.path)) remove(f.prev.path);
    files.push({ path: f.path, id: f.file.id, name: f.file.name, sha256: f.file.sha256 });
  }
  for (const d of plan.deletedFiles) if (!assetPaths.has(d.path)) remove(d.path);

  if (summary.text !== undefined && summary.text !== base?.summaryText) put(config.summary, bytesOf(summary.text));
  const configText = writeRedirects(plan, config, current, put);

  return {
    changes,
    baseline: {
      version: 1,
      projectDirectory: config.projectDirectory,
      root: config.root,
      readme: config.readme,
      summary: config.summary,
      ...(summary.text !== undefined ? { summaryText: summary.text } : {}),
      ...(configText !== undefined ? { configText } : {}),
      pages,
      files,
    },
  };
}

/**
 * Adds a redirect for every page whose file moves to `.gitbook.yaml`, when it has a `redirects` map
 * (see the file comment); answers the file's text as the branch will hold it.
 */
function writeRedirects(
  plan: Plan,
  config: DocsConfig,
  current: ReadonlyMap<string, Uint8Array> | undefined,
  put: (path: string, bytes: Uint8Array) => void,
): string | undefined {
  const there = current?.get(config.configPath);
  const text = there ? utf8(there) : config.configText;
  if (text === undefined || !hasRedirectsMap(text)) return text;
  const add = new Map<string, string>();
  for (const p of plan.pages) {
    if (p.oldPath === undefined || p.path === undefined || p.oldPath === p.path || !p.path.startsWith(config.root))
      continue;
    const from = urlPathOf(p.oldPath, config.root, config.readme);
    if (from !== undefined && from !== urlPathOf(p.path, config.root, config.readme))
      add.set(from, p.path.slice(config.root.length));
  }
  const next = addRedirects(text, add);
  if (next !== text) put(config.configPath, bytesOf(next));
  return next;
}

/** Writes one page (when it changed) and answers its new baseline entry. */
function writePage(
  p: PlannedPage,
  current: ReadonlyMap<string, Uint8Array> | undefined,
  links: PageLinks,
  summary: ReturnType<typeof planSummary>,
  put: (path: string, bytes: Uint8Array) => void,
): BaselinePage {
  const { page } = p;
  const listed = summary.entries.get(page.id);
  const entry: BaselinePage = {
    key: p.key,
    id: page.id,
    ...(p.parent ? { parent: p.parent.key } : {}),
    kind: page.kind,
    title: page.title,
    slug: page.slug,
    ...fieldsOf(page),
    ...(page.kind === 'link' ? { href: page.href ?? '' } : {}),
    markdown: page.kind === 'document' ? page.markdown : '',
    ...(listed ? { listedTitle: listed.title, entry: listed.entry } : {}),
  };
  if (page.kind !== 'document') return entry;
  const path = p.path!;
  const prev = p.prev;
  if (prev?.kind !== 'document' || prev.text === undefined || prev.bodyStart === undefined) {
    const written = newPageText(page, path, links);
    put(path, bytesOf(written.text));
    return { ...entry, text: written.text, bodyStart: written.bodyStart };
  }
  const known = { ...prev, text: prev.text, bodyStart: prev.bodyStart };
  const same = unchanged(page, prev) && !links.moved && path === prev.key;
  const written = same ? known : editedPageText(page, known, path, links, summary.text !== undefined);
  if (path !== prev.key || written.text !== prev.text) {
    const there = current?.get(prev.key);
    const repoText = there ? utf8(there) : prev.text;
    put(path, bytesOf(mergeOnto(repoText, prev.text, written.text)));
  }
  // The baseline keeps Folio's text, not a merge with the repository's: the next read then sees
  // the repository's own edits as changes, and imports them.
  return { ...entry, text: written.text, bodyStart: written.bodyStart };
}
