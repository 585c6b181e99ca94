import { alignLines } from './line-merge';
import { rewriteHrefs } from './link-spans';
import { resolveInFolio, resolveInRepo, sameTarget, type FolioIndex, type RepoIndex } from './link-targets';
import { bodyLines, decodePageFile, type PageFile } from './page-file';
import type { BaselinePage, PageFields } from './types';

/**
 * One page file read against the baseline: a field, the title or a body line that did not change
 * in the repository since the last sync reads as what Folio stored for it, so that a page edited
 * in Git comes back with only its edited parts changed. What did change is decoded afresh.
 */

const FIELDS = ['description', 'icon', 'emoji', 'hidden'] as const;

/** The title and fields of a page file (see the file comment). */
export function readPageFields(
  path: string,
  text: string,
  listedTitle: string | undefined,
  prev: BaselinePage | undefined,
  fallbackTitle: (path: string) => string,
): { title: string; fields: PageFields } {
  const file = decodePageFile(text);
  const title = file.title ?? listedTitle ?? fallbackTitle(path);
  if (!prev || prev.text === undefined) return { title, fields: file.fields };
  const before = decodePageFile(prev.text);
  const titleBefore = before.title ?? prev.listedTitle ?? fallbackTitle(prev.key);
  const fields: PageFields = {};
  for (const name of FIELDS) {
    const value = file.fields[name] === before.fields[name] ? prev[name] : file.fields[name];
    if (value !== undefined) (fields as Record<string, unknown>)[name] = value;
  }
  return { title: title === titleBefore ? prev.title : title, fields };
}

/** What link decisions need: both readings of an href, and the ids of known pages and files by key. */
export interface LinkContext {
  folio: FolioIndex;
  repo: RepoIndex;
  idOf(key: string): string | undefined;
}

/**
 * An href as Folio stores it: as written when Folio reads it as the repository does (GitBook's
 * relative links mostly are), else the canonical `/pages/<id>` or `/files/<id>` of what it names
 * in the repository — when that page or file already has an id. A link to a page new in this
 * read stays as written: Folio resolves it by path, the way the repository's layout suggests.
 */
function storedHref(key: string, href: string, ctx: LinkContext): string | undefined {
  const inRepo = resolveInRepo(key, href, ctx.repo);
  if (!inRepo || sameTarget(inRepo, resolveInFolio(key, href, ctx.folio))) return undefined;
  const id = ctx.idOf(inRepo.id);
  if (!id) return undefined;
  if (inRepo.kind === 'file') return `/files/${id}`;
  const hash = href.indexOf('#');
  return `/pages/${id}${hash >= 0 ? href.slice(hash) : ''}`;
}

/** Whether two files have the same first `count` lines, endings included. */
function samePrefix(a: PageFile, b: PageFile, count: number): boolean {
  if (a.bom !== b.bom || a.lines.length < count || b.lines.length < count) return false;
  for (let i = 0; i < count; i++)
    if (a.lines[i]!.text !== b.lines[i]!.text || a.lines[i]!.eol !== b.lines[i]!.eol) return false;
  return true;
}

/** The stored body of a page file, and where it starts in the file (see the file comment). */
export function readPageBody(
  key: string,
  text: string,
  prev: BaselinePage | undefined,
  ctx: LinkContext,
): { markdown: string; bodyStart: number } {
  if (prev?.text === text && prev.bodyStart !== undefined)
    return { markdown: prev.markdown, bodyStart: prev.bodyStart };
  const file = decodePageFile(text);
  const decode = (lines: string[], only?: (i: number) => boolean) =>
    rewriteHrefs(lines, (href) => storedHref(key, href, ctx), { attributes: false, ...(only ? { only } : {}) });
  if (prev?.text !== undefined && prev.bodyStart !== undefined) {
    const before = decodePageFile(prev.text);
    // A body Folio stores with leading blank lines starts where the baseline says, while the lines
    // before it are unchanged (a fresh read would take those blank lines for the separator).
    const leadingBlank = /^[ \t]*(\n|$)/.test(prev.markdown) && prev.markdown !== '';
    const start = leadingBlank && samePrefix(before, file, prev.bodyStart) ? prev.bodyStart : file.bodyStart;
    const oldBody = bodyLines(before, prev.bodyStart);
    const stored = prev.markdown.split('\n');
    if (stored.length === oldBody.length) {
      const newBody = bodyLines(file, start);
      const from = alignLines(oldBody, newBody);
      const fresh = decode(newBody, (j) => from[j] === undefined);
      const markdown = newBody.map((_, j) => (from[j] === undefined ? fresh[j]! : stored[from[j]!]!)).join('\n');
      return { markdown, bodyStart: start };
    }
  }
  return { markdown: decode(bodyLines(file)).join('\n'), bodyStart: file.bodyStart };
}
