import { posix } from 'node:path';
import { isMarkdownName, type Unpacked } from './archive-unpack';
import { parseSummary } from './summary';

/**
 * The page tree of an unpacked export, in order: from SUMMARY.md when there is one (its groups
 * included), else every markdown file, README.md first, a folder's README.md holding the folder's
 * pages. Nothing is read or skipped here: archive.ts decides what each entry becomes.
 */

export interface LayoutEntry {
  /** The page's file in the archive; a group's key is `#<n>` (a group has no file). */
  key: string;
  group?: boolean;
  /** The title SUMMARY.md gives (else the page's own heading, or its file name). */
  title?: string;
  /** Key of the entry it goes into; that one may end up skipped, then its own parent holds it. */
  parentKey?: string;
}

/** Every markdown path of the archive, the ones too large to read included (they are skipped, and said). */
const markdownPaths = (unpacked: Unpacked) =>
  [...unpacked.files.keys(), ...unpacked.oversized.keys()].filter(isMarkdownName);

export function layoutOf(unpacked: Unpacked): LayoutEntry[] {
  const summaries = [...unpacked.files.keys()].filter((p) => posix.basename(p).toUpperCase() === 'SUMMARY.MD');
  summaries.sort((a, b) => a.split('/').length - b.split('/').length);
  const summary = summaries[0];
  return summary ? summaryLayout(unpacked, summary) : folderLayout(unpacked);
}

function summaryLayout(unpacked: Unpacked, summary: string): LayoutEntry[] {
  const root = posix.dirname(summary) === '.' ? '' : `${posix.dirname(summary)}/`;
  const parsed = parseSummary(Buffer.from(unpacked.files.get(summary)!).toString('utf8'));
  const keyOf = (i: number) => {
    const e = parsed[i]!;
    return e.kind === 'group' ? `#${i}` : posix.normalize(root + e.path);
  };
  const listed = new Set<string>();
  const entries: LayoutEntry[] = [];
  parsed.forEach((e, i) => {
    const key = keyOf(i);
    // GitBook refuses a file listed twice (one page, one place): the first place wins.
    if (listed.has(key)) return;
    listed.add(key);
    const parent = e.kind === 'page' ? e.parent : undefined;
    entries.push({
      key,
      title: e.title,
      ...(e.kind === 'group' ? { group: true } : {}),
      ...(parent !== undefined ? { parentKey: keyOf(parent) } : {}),
    });
  });
  return entries;
}

function folderLayout(unpacked: Unpacked): LayoutEntry[] {
  const markdown = markdownPaths(unpacked);
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
  return markdown
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
      return {
        key: path,
        ...(holder && !rootReadme && !(isReadme && dir + '/' === root) ? { parentKey: holder } : {}),
      };
    });
}
