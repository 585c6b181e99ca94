import { posix } from 'node:path';
import { unzipSync } from 'fflate';
import { fileNameProblem } from '../store/file-fields';
import { contentToMarkdown, extractPage } from './html-content';
import { rewriteMarkdownLinks } from './markdown-links';
import { parseSummary } from './summary';
import { ImportError, refNamer, type ImportedFile, type ImportedPage, type ImportTree } from './types';
import { titleFromUrl } from './website';

/**
 * Imports of files: a .zip of markdown in GitBook's export layout (README.md the first page,
 * SUMMARY.md the table of contents, .gitbook/assets/ the files), or single markdown and HTML
 * files. Links between the imported files become links to their pages; images under
 * .gitbook/assets/ become files of the same name, which Folio's links resolve by name.
 */

export interface ArchiveLimits {
  /** Most pages taken from the files of one import. */
  maxPages: number;
  /** Most entries of an archive, and their largest total size once unpacked (bytes). */
  maxEntries: number;
  maxUnpackedBytes: number;
  /** Largest file kept from an archive (bytes); a larger one is skipped. */
  maxFileBytes: number;
}

export const ARCHIVE_LIMITS: ArchiveLimits = {
  maxPages: 1000,
  maxEntries: 5000,
  maxUnpackedBytes: 200 * 1024 * 1024,
  maxFileBytes: 1024 * 1024,
};

/** One uploaded (or fetched) file of the import. */
export interface SourceFile {
  name: string;
  contentType?: string;
  bytes: Buffer;
}

export const isZip = (b: Buffer) => b.length >= 4 && b.readUInt32LE(0) === 0x04034b50;
const isMarkdownName = (n: string) => /\.(md|markdown)$/i.test(n);
const isHtmlName = (n: string) => /\.html?$/i.test(n);

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

/** Unpacks an archive within the limits (sizes are checked before anything is inflated). */
function unpack(bytes: Buffer, limits: ArchiveLimits): Map<string, Uint8Array> {
  let entries = 0;
  let total = 0;
  let tooBig: string | undefined;
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter(entry) {
        if (entry.name.endsWith('/')) return false;
        entries++;
        total += entry.originalSize;
        if (entries > limits.maxEntries) tooBig = `more than ${limits.maxEntries} files`;
        if (total > limits.maxUnpackedBytes) tooBig = `more than ${limits.maxUnpackedBytes} bytes unpacked`;
        return !tooBig && entry.originalSize <= limits.maxFileBytes * 4;
      },
    });
  } catch (err) {
    throw new ImportError('INVALID_SOURCE', `The archive could not be read: ${(err as Error).message}`);
  }
  if (tooBig) throw new ImportError('INVALID_SOURCE', `The archive has ${tooBig}`);
  const out = new Map<string, Uint8Array>();
  for (const [name, data] of Object.entries(files)) {
    const path = posix.normalize(name.replace(/\\/g, '/')).replace(/^\/+/, '');
    // Paths leaving the archive, and the clutter archivers add, are not content.
    if (path.startsWith('..') || /(^|\/)(__MACOSX|\.DS_Store)(\/|$)/.test(path)) continue;
    out.set(path, data);
  }
  return out;
}

interface Entry {
  path: string;
  title?: string;
  parentPath?: string;
}

/** The pages of an unpacked export, in order: from SUMMARY.md, else every markdown file (README.md first). */
function pagesOf(files: Map<string, Uint8Array>): { root: string; entries: Entry[] } {
  const summaries = [...files.keys()].filter((p) => posix.basename(p).toUpperCase() === 'SUMMARY.MD');
  summaries.sort((a, b) => a.split('/').length - b.split('/').length);
  const summary = summaries[0];
  if (summary) {
    const root = posix.dirname(summary) === '.' ? '' : `${posix.dirname(summary)}/`;
    const parsed = parseSummary(Buffer.from(files.get(summary)!).toString('utf8'));
    const entries: Entry[] = [];
    const seen = new Set<string>();
    for (const e of parsed) {
      const path = posix.normalize(root + e.path);
      if (seen.has(path) || !files.has(path)) continue;
      seen.add(path);
      const parent = e.parent !== undefined ? posix.normalize(root + parsed[e.parent]!.path) : undefined;
      entries.push({ path, title: e.title, ...(parent && seen.has(parent) ? { parentPath: parent } : {}) });
    }
    return { root, entries };
  }
  const markdown = [...files.keys()].filter(isMarkdownName);
  const depth = (p: string) => p.split('/').length;
  markdown.sort(
    (a, b) =>
      posix.dirname(a).localeCompare(posix.dirname(b)) ||
      Number(!/readme\.md$/i.test(a)) - Number(!/readme\.md$/i.test(b)) ||
      a.localeCompare(b),
  );
  const readmes = markdown.filter((p) => /(^|\/)readme\.md$/i.test(p)).sort((a, b) => depth(a) - depth(b));
  const root = readmes[0] && posix.dirname(readmes[0]) !== '.' ? `${posix.dirname(readmes[0])}/` : '';
  const set = new Set(markdown);
  const entries = markdown
    .filter((p) => p.startsWith(root))
    .map((path) => {
      // A folder's README.md holds the folder's pages; a folder's README is held by its parent folder's.
      const dir = posix.dirname(path);
      const isReadme = /readme\.md$/i.test(path);
      const holderDir = isReadme ? posix.dirname(dir) : dir;
      const holder = [`${holderDir}/README.md`, `${holderDir}.md`]
        .map((p) => p.replace(/^\.\//, ''))
        .find((p) => set.has(p) && p !== path && `${p}/`.startsWith(root) && p.length >= root.length);
      // The root README.md is the first page, beside the others (GitBook's layout), never their parent.
      const rootReadme =
        holder !== undefined && `${posix.dirname(holder)}/` === (root || './') && /readme\.md$/i.test(holder);
      return { path, ...(holder && !rootReadme && !(isReadme && dir + '/' === root) ? { parentPath: holder } : {}) };
    });
  return { root, entries };
}

/** Imports the files of one import (see the file comment). */
export function importFiles(sources: readonly SourceFile[], runId: string, limits = ARCHIVE_LIMITS): ImportTree {
  const refs = refNamer(runId);
  const pages: ImportedPage[] = [];
  const files: ImportedFile[] = [];
  let total = 0;
  let skipped = 0;
  for (const source of sources) {
    if (isZip(source.bytes)) {
      const tree = importArchive(unpack(source.bytes, limits), refs, limits, limits.maxPages - pages.length);
      pages.push(...tree.pages);
      files.push(...tree.files);
      total += tree.total;
      skipped += tree.skipped;
      continue;
    }
    total++;
    if (pages.length >= limits.maxPages) {
      skipped++;
      continue;
    }
    const text = source.bytes.toString('utf8').replace(/^\uFEFF/, '');
    if (isHtmlName(source.name) || /html/i.test(source.contentType ?? '')) {
      const page = extractPage(text, 'file:///');
      pages.push({
        ref: refs.page(),
        title: page.title || titleFromUrl(`file:///${encodeURIComponent(source.name)}`),
        // A single HTML file has nowhere to take relative images from: they are left out.
        markdown: contentToMarkdown(page.html, page.title, {
          link: () => undefined,
          image: (src) => (/^https?:/i.test(src) ? undefined : null),
        }),
        sourceURL: source.name,
      });
    } else if (isMarkdownName(source.name) || /markdown|text\/plain/i.test(source.contentType ?? '')) {
      pages.push({
        ref: refs.page(),
        title: markdownTitle(text) ?? titleOf(source.name),
        markdown: text,
        sourceURL: source.name,
      });
    } else {
      skipped++;
    }
  }
  return { pages, files, total, skipped };
}

const titleOf = (path: string) => titleFromUrl(`file:///${encodeURIComponent(posix.basename(path))}`);
const markdownTitle = (text: string) => /^(?:---[\s\S]*?\n---\s*\n)?\s*#\s+(.+)$/m.exec(text)?.[1]?.trim();

function importArchive(
  files: Map<string, Uint8Array>,
  refs: ReturnType<typeof refNamer>,
  limits: ArchiveLimits,
  room: number,
): ImportTree {
  const { entries } = pagesOf(files);
  if (entries.length === 0 && ![...files.keys()].some(isMarkdownName))
    throw new ImportError('INVALID_SOURCE', 'The archive holds no markdown file');
  const kept = entries.slice(0, Math.max(0, room));
  let skipped = entries.length - kept.length;
  const refByPath = new Map(kept.map((e) => [e.path, refs.page()]));
  // Every asset a page may show: the files under .gitbook/assets/ (GitBook's layout), by their names.
  const out: ImportedFile[] = [];
  const assets = [...files.keys()].filter((p) => /(^|\/)\.gitbook\/assets\/[^/]+$/.test(p));
  for (const path of assets) {
    const data = files.get(path)!;
    const name = posix.basename(path);
    const ext = name.split('.').pop()!.toLowerCase();
    if (data.length > limits.maxFileBytes || fileNameProblem(name)) {
      skipped++;
      continue;
    }
    out.push({
      ref: refs.file(),
      name,
      contentType: IMAGE_TYPES[ext] ?? 'application/octet-stream',
      bytes: Buffer.from(data),
    });
  }
  const pages = kept.map((e) => {
    const text = Buffer.from(files.get(e.path)!)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
    const dir = posix.dirname(e.path);
    const markdown = rewriteMarkdownLinks(text, (href) => {
      if (/^[a-z][a-z0-9+.-]*:|^\/\/|^#/i.test(href)) return undefined;
      const [target, anchor] = href.split('#', 2) as [string, string | undefined];
      let path: string;
      try {
        path = posix.normalize(posix.join(dir, decodeURIComponent(target)));
      } catch {
        return undefined;
      }
      const ref = refByPath.get(path) ?? refByPath.get(posix.join(path, 'README.md'));
      return ref ? `${ref}.md${anchor ? `#${anchor}` : ''}` : undefined;
    });
    const parent = e.parentPath !== undefined ? refByPath.get(e.parentPath) : undefined;
    return {
      ref: refByPath.get(e.path)!,
      ...(parent ? { parent } : {}),
      title:
        e.title ??
        markdownTitle(text) ??
        (/readme\.md$/i.test(e.path) ? titleOf(dir === '.' ? 'Introduction' : dir) : titleOf(e.path)),
      markdown,
      sourceURL: e.path,
    };
  });
  return { pages, files: out, total: entries.length + assets.length, skipped };
}
