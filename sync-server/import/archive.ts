import { contentTypeOf } from './media-types';
import { posix } from 'node:path';
import { fileNameProblem } from '../store/file-fields';
import { layoutOf, type LayoutEntry } from './archive-layout';
import {
  ARCHIVE_LIMITS,
  isHtmlName,
  isMarkdownName,
  unpack,
  type ArchiveLimits,
  type Unpacked,
} from './archive-unpack';
import { contentToMarkdown, extractPage } from './html-content';
import { rewriteMarkdownLinks } from './markdown-links';
import { formatBytes, ImportTally } from './tally';
import { ImportError, refNamer, type ImportedFile, type ImportedPage, type ImportTree } from './types';
import { titleFromUrl } from './website';

/**
 * Imports of files: a .zip of markdown in GitBook's export layout (README.md the first page,
 * SUMMARY.md the table of contents and its `##` groups, .gitbook/assets/ the files), or single
 * markdown and HTML files. Links between the imported files become links to their pages; images
 * under .gitbook/assets/ become files of the same name, which Folio's links resolve by name. A
 * page or file left out (too large, missing, past the page limit) is counted and listed with why.
 */

export { ARCHIVE_LIMITS, type ArchiveLimits } from './archive-unpack';

/** One uploaded (or fetched) file of the import. */
export interface SourceFile {
  name: string;
  contentType?: string;
  bytes: Buffer;
}

export const isZip = (b: Buffer) => b.length >= 4 && b.readUInt32LE(0) === 0x04034b50;

/** Imports the files of one import (see the file comment). */
export function importFiles(sources: readonly SourceFile[], runId: string, limits = ARCHIVE_LIMITS): ImportTree {
  const refs = refNamer(runId);
  const tally = new ImportTally();
  const pages: ImportedPage[] = [];
  const files: ImportedFile[] = [];
  for (const source of sources) {
    if (isZip(source.bytes)) {
      const tree = importArchive(unpack(source.bytes, limits), refs, tally, limits);
      pages.push(...tree.pages);
      files.push(...tree.files);
      continue;
    }
    tally.found('pages');
    if (tally.counts.pages.done >= limits.maxPages) {
      tally.skip('pages', source.name, 'PAGE_LIMIT', `past the limit of ${limits.maxPages} pages per import`);
      continue;
    }
    const page = singleFilePage(source, refs);
    if (!page) {
      tally.skip('pages', source.name, 'UNSUPPORTED_FILE', 'not a markdown, HTML or .zip file');
      continue;
    }
    pages.push(page);
    tally.done('pages');
  }
  return tally.tree(pages, files);
}

/** The page of one uploaded markdown or HTML file, or undefined for another kind of file. */
function singleFilePage(source: SourceFile, refs: ReturnType<typeof refNamer>): ImportedPage | undefined {
  const text = source.bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (isHtmlName(source.name) || /html/i.test(source.contentType ?? '')) {
    const page = extractPage(text, 'file:///');
    return {
      ref: refs.page(),
      title: page.title || titleFromUrl(`file:///${encodeURIComponent(source.name)}`),
      // A single HTML file has nowhere to take relative images from: they are left out.
      markdown: contentToMarkdown(page.html, page.title, {
        link: () => undefined,
        image: (src) => (/^https?:/i.test(src) ? undefined : null),
      }),
      sourceURL: source.name,
    };
  }
  if (isMarkdownName(source.name) || /markdown|text\/plain/i.test(source.contentType ?? ''))
    return {
      ref: refs.page(),
      title: markdownTitle(text) ?? titleOf(source.name),
      markdown: text,
      sourceURL: source.name,
    };
  return undefined;
}

const titleOf = (path: string) => titleFromUrl(`file:///${encodeURIComponent(posix.basename(path))}`);
const markdownTitle = (text: string) => /^(?:---[\s\S]*?\n---\s*\n)?\s*#\s+(.+)$/m.exec(text)?.[1]?.trim();

const isAsset = (path: string) => /(^|\/)\.gitbook\/assets\/[^/]+$/.test(path);
const tooLarge = (size: number, limit: number, what: string) =>
  `${size} bytes, over the limit of ${limit} bytes (${formatBytes(limit)}) per ${what}`;

/** The pages and files of one unpacked export, counted into `tally` (see the file comment). */
function importArchive(
  unpacked: Unpacked,
  refs: ReturnType<typeof refNamer>,
  tally: ImportTally,
  limits: ArchiveLimits,
): { pages: ImportedPage[]; files: ImportedFile[] } {
  const { files, oversized } = unpacked;
  const layout = layoutOf(unpacked);
  if (!layout.some((e) => !e.group) && ![...files.keys(), ...oversized.keys()].some(isMarkdownName))
    throw new ImportError('INVALID_SOURCE', 'The archive holds no markdown file');
  // Pages first: which are read (a ref each), which are skipped and why.
  const refOf = new Map<string, string>();
  const docs = layout.filter((e) => !e.group);
  tally.found('pages', docs.length);
  for (const e of docs) {
    const size = oversized.get(e.key);
    if (size !== undefined) tally.skip('pages', e.key, 'FILE_TOO_LARGE', tooLarge(size, limits.maxPageBytes, 'page'));
    else if (!files.has(e.key)) tally.skip('pages', e.key, 'UNREADABLE', 'listed in SUMMARY.md but not in the archive');
    else if (tally.counts.pages.done >= limits.maxPages)
      tally.skip('pages', e.key, 'PAGE_LIMIT', `past the limit of ${limits.maxPages} pages per import`);
    else {
      refOf.set(e.key, refs.page());
      tally.done('pages');
    }
  }
  // A page goes into the nearest entry above it that is imported; a group is imported when a page goes into it.
  const holders = holdersOf(layout, refOf);
  for (const holder of holders.values())
    if (holder?.group && !refOf.has(holder.key)) refOf.set(holder.key, refs.page());
  const pages: ImportedPage[] = [];
  for (const e of layout) {
    const ref = refOf.get(e.key);
    if (ref === undefined) continue;
    if (e.group) {
      pages.push({ ref, kind: 'group', title: e.title ?? 'Untitled', markdown: '' });
      continue;
    }
    const holder = holders.get(e.key);
    pages.push(pageOf(e, files.get(e.key)!, refOf, holder ? refOf.get(holder.key) : undefined));
  }
  return { pages, files: assetsOf(unpacked, refs, tally, limits) };
}

/** For each imported page, the entry it goes into: its parent, or the nearest one above a skipped parent. */
function holdersOf(layout: readonly LayoutEntry[], refOf: Map<string, string>): Map<string, LayoutEntry | undefined> {
  const byKey = new Map(layout.map((e) => [e.key, e]));
  const holders = new Map<string, LayoutEntry | undefined>();
  for (const e of layout) {
    if (e.group || !refOf.has(e.key)) continue;
    let holder: LayoutEntry | undefined;
    // Cycle-safe: a folder layout's holders are files, and nothing stops two from naming each other.
    const seen = new Set<string>([e.key]);
    for (let key = e.parentKey; key !== undefined && !seen.has(key); key = byKey.get(key)?.parentKey) {
      seen.add(key);
      const up = byKey.get(key);
      if (up && (up.group || refOf.has(key))) {
        holder = up;
        break;
      }
    }
    holders.set(e.key, holder);
  }
  return holders;
}

/** One page of an export: its markdown with links to other imported pages pointing at their refs. */
function pageOf(e: LayoutEntry, data: Uint8Array, refOf: Map<string, string>, parent: string | undefined) {
  const text = Buffer.from(data)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const dir = posix.dirname(e.key);
  const markdown = rewriteMarkdownLinks(text, (href) => {
    if (/^[a-z][a-z0-9+.-]*:|^\/\/|^#/i.test(href)) return undefined;
    const [target, anchor] = href.split('#', 2) as [string, string | undefined];
    let path: string;
    try {
      path = posix.normalize(posix.join(dir, decodeURIComponent(target)));
    } catch {
      return undefined;
    }
    const ref = refOf.get(path) ?? refOf.get(posix.join(path, 'README.md'));
    return ref ? `${ref}.md${anchor ? `#${anchor}` : ''}` : undefined;
  });
  return {
    ref: refOf.get(e.key)!,
    ...(parent ? { parent } : {}),
    title:
      e.title ??
      markdownTitle(text) ??
      (/readme\.md$/i.test(e.key) ? titleOf(dir === '.' ? 'Introduction' : dir) : titleOf(e.key)),
    markdown,
    sourceURL: e.key,
  };
}

/** Every asset a page may show: the files under .gitbook/assets/ (GitBook's layout), by their names. */
function assetsOf(
  { files, oversized }: Unpacked,
  refs: ReturnType<typeof refNamer>,
  tally: ImportTally,
  limits: ArchiveLimits,
): ImportedFile[] {
  const out: ImportedFile[] = [];
  const assets = [...files.keys(), ...oversized.keys()].filter(isAsset);
  tally.found('files', assets.length);
  for (const path of assets) {
    const name = posix.basename(path);
    const size = oversized.get(path);
    const problem = fileNameProblem(name);
    if (size !== undefined)
      tally.skip(
        'files',
        path,
        'FILE_TOO_LARGE',
        `${tooLarge(size, limits.maxFileBytes, 'file')} (FOLIO_IMPORT_MAX_FILE_BYTES)`,
      );
    else if (problem) tally.skip('files', path, 'INVALID_FILE', `the file name ${problem}`);
    else {
      out.push({
        ref: refs.file(),
        name,
        contentType: contentTypeOf(name),
        bytes: Buffer.from(files.get(path)!),
      });
      tally.done('files');
    }
  }
  return out;
}
