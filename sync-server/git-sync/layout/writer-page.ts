import { editFrontMatter, keysFor, type FrontMatter } from './front-matter';
import { applyLineEdit } from './line-merge';
import { rewriteHrefs } from './link-spans';
import {
  hashOf,
  hrefTo,
  resolveInFolio,
  resolveInRepo,
  sameTarget,
  type FolioIndex,
  type RepoIndex,
} from './link-targets';
import { dominantEol, joinLines, splitLines, type Line } from './lines';
import { composePageFile, decodePageFile, headingLine } from './page-file';
import type { BaselinePage, SpacePage } from './types';

/**
 * The text of one page's file. A new page is written in GitBook's style. A page the repository
 * already has is its last synced text with Folio's edits applied: the body's changed lines (by a
 * line diff of the stored body), the front-matter keys of changed fields, the heading line of a
 * changed title — and nothing else, so a formatter's style survives on every line Folio did not
 * edit. Links Folio writes (`/pages/<id>`, `/files/<id>`) become relative paths to the files;
 * links on kept lines are re-pointed only when what they named has moved.
 */

export interface PageLinks {
  /** Folio's reading of the space's links. */
  folio: FolioIndex;
  /** Where pages and assets are after this write, and where they were at the last sync (by id). */
  now: RepoIndex;
  before: RepoIndex;
  /** Whether any page or asset changed path (else kept lines need no look at their links). */
  moved: boolean;
}

/** An href Folio stores, as the file at `path` must write it (undefined: as it is). */
function encoder(page: SpacePage, path: string, links: PageLinks) {
  return (href: string): string | undefined => {
    const target = resolveInFolio(page.id, href, links.folio);
    if (!target || sameTarget(target, resolveInRepo(path, href, links.now))) return undefined;
    return hrefTo(path, target, links.now, hashOf(href), page.id);
  };
}

/** An href of a kept line, re-pointed when its target (or the page itself) moved. */
function fixer(page: SpacePage, oldPath: string, path: string, links: PageLinks) {
  return (href: string): string | undefined => {
    const before = resolveInRepo(oldPath, href, links.before);
    if (!before || sameTarget(before, resolveInRepo(path, href, links.now))) return undefined;
    return hrefTo(path, before, links.now, hashOf(href), page.id);
  };
}

/** A new page's file. */
export function newPageText(page: SpacePage, path: string, links: PageLinks): { text: string; bodyStart: number } {
  const body = rewriteHrefs(page.markdown.split('\n'), encoder(page, path, links), { attributes: true });
  return composePageFile(page, page.title, body);
}

const EMPTY_FRONT_MATTER: FrontMatter = { valid: true, keys: [], values: {} };

/** The front-matter key changes that take `prev`'s fields (and title) to `page`'s. */
function frontMatterChanges(prev: BaselinePage, page: SpacePage, fm: FrontMatter): Map<string, unknown> {
  const before = keysFor(prev, fm);
  const after = keysFor(page, fm);
  const changes = new Map<string, unknown>();
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)]))
    if (before[key] !== after[key]) changes.set(key, after[key]);
  if (prev.title !== page.title && fm.keys.includes('title')) changes.set('title', page.title);
  return changes;
}

/** The prefix (front matter, heading) with the changed fields and title written into it. */
function editPrefix(
  prefix: Line[],
  prev: BaselinePage,
  page: SpacePage,
  file: ReturnType<typeof decodePageFile>,
  titleElsewhere: boolean,
): Line[] {
  const out = [...prefix];
  const titleChanged = prev.title !== page.title;
  if (titleChanged && file.heading) {
    const h = file.heading;
    out[h.line] = { ...out[h.line]!, text: h.setext ? page.title.replace(/\s*\n\s*/g, ' ') : headingLine(page.title) };
  }
  const fm = file.frontMatter;
  const changes = frontMatterChanges(prev, page, fm?.data ?? EMPTY_FRONT_MATTER);
  const eol = dominantEol(file.lines);
  if (titleChanged && !file.heading && !fm?.data.keys.includes('title') && !titleElsewhere)
    out.push({ text: headingLine(page.title) }, { text: '' });
  if (changes.size === 0) return out;
  if (fm) {
    const edited = editFrontMatter(fm.yaml, changes, eol);
    if (edited === undefined) return out; // YAML it cannot edit safely stays as written
    const yaml = splitLines(edited);
    if (yaml[yaml.length - 1]!.text === '') yaml.pop();
    if (yaml.every((l) => l.text.trim() === '')) {
      // No key left: the block goes, with the blank line that set it apart.
      const rest = out.slice(fm.close + 1);
      return rest[0]?.text.trim() === '' && rest.length > 1 ? rest.slice(1) : rest;
    }
    return [out[0]!, ...yaml, ...out.slice(fm.close)];
  }
  const added = [...changes].filter(([, v]) => v !== undefined);
  if (added.length === 0) return out;
  const yaml = splitLines(editFrontMatter('', new Map(added), '\n') ?? '').filter((l) => l.text !== '');
  return [{ text: '---' }, ...yaml.map((l) => ({ text: l.text })), { text: '---' }, { text: '' }, ...out];
}

/**
 * An existing page's file (see the file comment). `titleElsewhere`: SUMMARY.md carries the title,
 * so a file without a heading needs none for a new title.
 */
export function editedPageText(
  page: SpacePage,
  prev: BaselinePage & { text: string; bodyStart: number },
  path: string,
  links: PageLinks,
  titleElsewhere: boolean,
): { text: string; bodyStart: number } {
  const file = decodePageFile(prev.text);
  const stored = prev.markdown.split('\n');
  const oldBody = file.lines.slice(prev.bodyStart);
  const next = page.markdown.split('\n');
  // A baseline whose body does not line up with its text (never written by this codec) is rewritten whole.
  const body =
    stored.length === oldBody.length
      ? applyLineEdit(stored, next, oldBody, (text): Line => ({ text }))
      : next.map((text) => ({ line: { text } as Line, kept: false }));
  const encode = encoder(page, path, links);
  const fix = links.moved || prev.key !== path ? fixer(page, prev.key, path, links) : undefined;
  const texts = rewriteHrefs(
    body.map((b) => b.line.text),
    (href, i) => (body[i]!.kept ? fix?.(href) : encode(href)),
    { attributes: true, only: (i) => !body[i]!.kept || fix !== undefined },
  );
  const bodyLines = body.map((b, i) => (texts[i] === b.line.text ? b.line : { ...b.line, text: texts[i]! }));
  const eol = dominantEol(file.lines);
  let prefix = editPrefix(file.lines.slice(0, prev.bodyStart), prev, page, file, titleElsewhere);
  // A body written where there was none gets GitBook's blank line after the heading.
  const headingEnd = file.heading ? file.heading.line + (file.heading.setext ? 2 : 1) : -1;
  if (prev.bodyStart === headingEnd && bodyLines[0] && !body[0]!.kept && bodyLines[0].text.trim() !== '')
    prefix = [...prefix, { text: '' }];
  let text = file.bom + joinLines([...prefix, ...bodyLines], eol);
  // The body must not turn into a title or front matter the file did not have: then the file needs a heading.
  const check = decodePageFile(text);
  if (
    (!file.heading && check.heading && check.heading.line >= prefix.length) ||
    (!file.frontMatter && check.frontMatter && !prefix.length)
  ) {
    prefix = [...prefix, { text: headingLine(page.title) }, { text: '' }];
    text = file.bom + joinLines([...prefix, ...bodyLines], eol);
  }
  return { text, bodyStart: prefix.length };
}
