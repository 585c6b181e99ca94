import { slugify } from '../../../shared/markdown/slug';
import { downloadName } from '../../store/file-fields';
import { keyMaker } from './baseline';
import type { DocsConfig } from './config';
import { dirOf, isReadmePath, uniquePath } from './paths';
import type { Baseline, BaselineFile, BaselinePage, SpaceContent, SpaceFile, SpacePage } from './types';

/**
 * Where every page and asset of the space goes in the repository. A page keeps its file unless
 * Folio moved it (new parent) or renamed it (new slug): then it gets GitBook's path under its new
 * parent (`<parent folder>/<slug>.md`, or `<slug>/README.md` for a folder page) and the files of
 * its descendants that lived in its folder move along. New pages get GitBook's paths, the first
 * one of a new repository README.md; new assets go to `.gitbook/assets/<name>`. A path already
 * taken — by another page, or by a file Folio does not know — gets a `-2`, `-3`… suffix.
 */

export interface PlannedPage {
  page: SpacePage;
  parent?: PlannedPage;
  /** Its page in the baseline (by id, or an unbound one that shows the same). */
  prev?: BaselinePage;
  /** Its key in the new baseline. */
  key: string;
  /** Documents: the file it had (when it was a document) and the file it gets. */
  oldPath?: string;
  path?: string;
  /** Where the files of new or moved child pages go. */
  childDir: string;
  /** Folder moves its descendants follow: a file under `from` moves under `to`. */
  rebases: { from: string; to: string }[];
}

export interface PlannedFile {
  file: SpaceFile;
  prev?: BaselineFile;
  path: string;
}

export interface Plan {
  /** Every page, in tree order. */
  pages: PlannedPage[];
  files: PlannedFile[];
  /** Baseline pages and files Folio deleted. */
  deletedPages: BaselinePage[];
  deletedFiles: BaselineFile[];
  /** Baseline pages and files no Folio page is (read as new, never created): left alone. */
  strangers: BaselinePage[];
  strangerFiles: BaselineFile[];
}

const slugOf = (p: { slug: string; title: string }) => slugify(p.slug) || slugify(p.title) || 'page';

/** Which baseline page each space page is: by id, else an unbound one of the same kind showing the same. */
function matchPages(order: readonly SpacePage[], previous: Baseline | undefined): Map<SpacePage, BaselinePage> {
  const matched = new Map<SpacePage, BaselinePage>();
  const byId = new Map((previous?.pages ?? []).filter((p) => p.id).map((p) => [p.id!, p]));
  const unbound = (previous?.pages ?? []).filter((p) => !p.id);
  for (const page of order) {
    const prev = byId.get(page.id);
    if (prev) matched.set(page, prev);
  }
  const used = new Set<BaselinePage>();
  for (const page of order) {
    if (matched.has(page)) continue;
    const same = unbound.find(
      (u) =>
        !used.has(u) &&
        u.kind === page.kind &&
        u.title === page.title &&
        u.markdown === page.markdown &&
        (u.href ?? '') === (page.href ?? ''),
    );
    if (same) {
      matched.set(page, same);
      used.add(same);
    }
  }
  return matched;
}

function flatten(roots: readonly SpacePage[]): { page: SpacePage; parent?: SpacePage }[] {
  const out: { page: SpacePage; parent?: SpacePage }[] = [];
  const walk = (pages: readonly SpacePage[], parent: SpacePage | undefined) => {
    for (const page of pages) {
      out.push(parent ? { page, parent } : { page });
      // Link pages hold no children (Folio's tree puts any at the root).
      walk(page.kind === 'link' ? [] : page.children, page);
    }
  };
  walk(roots, undefined);
  return out;
}

export function planLayout(
  content: SpaceContent,
  previous: Baseline | undefined,
  current: ReadonlyMap<string, Uint8Array> | undefined,
  config: DocsConfig,
): Plan {
  const flat = flatten(content.pages);
  const matched = matchPages(
    flat.map((f) => f.page),
    previous,
  );
  const idOfKey = new Map<string, string>();
  for (const [page, prev] of matched) idOfKey.set(prev.key, page.id);
  const matchedSet = new Set(matched.values());
  const strangers = (previous?.pages ?? []).filter((p) => !matchedSet.has(p) && !p.id);
  const strangerSet = new Set(strangers);
  const deletedPages = (previous?.pages ?? []).filter((p) => !matchedSet.has(p) && p.id);

  // Paths nothing here may take: files Folio does not know, SUMMARY.md and .gitbook.yaml.
  const owned = new Set<string>([
    ...(previous?.pages ?? []).filter((p) => p.kind === 'document' && !strangerSet.has(p)).map((p) => p.key),
    ...(previous?.files ?? []).map((f) => f.path),
  ]);
  const reserved = new Set<string>([config.summary, config.configPath, ...strangers.map((p) => p.key)]);
  for (const path of current?.keys() ?? []) if (!owned.has(path)) reserved.add(path);
  // A first export into a tree Folio never read makes README.md its first page (see writer.ts).
  if (!previous) reserved.delete(config.readme);

  const firstDocument = flat.find((f) => f.page.kind === 'document')?.page;
  const readmeKept = [...matched].some(([page, prev]) => prev.key === config.readme && page.kind === 'document');
  const prevDoc = (page: SpacePage) => {
    const prev = matched.get(page);
    return prev?.kind === 'document' && page.kind === 'document' ? prev : undefined;
  };
  /** The folder a page's file sits in: a folder page's folder is in its parent folder. */
  const placeOf = (path: string) =>
    isReadmePath(path) && path !== config.readme ? dirOf(dirOf(path).slice(0, -1)) : dirOf(path);
  /** The folder a group's pages are in: the one its pages share, else its slug's. */
  const groupDir = (page: SpacePage) => {
    const prev = matched.get(page);
    const dirs = new Set(
      (previous?.pages ?? [])
        .filter((p) => prev && p.parent === prev.key && p.kind === 'document')
        .map((p) => placeOf(p.key)),
    );
    return dirs.size === 1 ? [...dirs][0]! : `${config.root}${slugOf(page)}/`;
  };
  /** The folder of a page's children: a folder page's own, `x/` beside `x.md`, `<slug>/` for the readme's. */
  const subtreeDir = (path: string, page: { slug: string; title: string }) =>
    path === config.readme
      ? `${dirOf(path)}${slugOf(page)}/`
      : isReadmePath(path)
        ? dirOf(path)
        : `${path.replace(/\.md$/i, '')}/`;

  /** One pass over the tree; `unique` resolves collisions (the first pass only finds which pages keep their files). */
  const pass = (taken: Set<string>, unique: boolean): PlannedPage[] => {
    const byPage = new Map<SpacePage, PlannedPage>();
    const keyOf = keyMaker();
    return flat.map(({ page, parent: parentPage }) => {
      const parent = parentPage ? byPage.get(parentPage) : undefined;
      const prev = matched.get(page);
      const old = prevDoc(page);
      const inherited = parent?.rebases ?? [];
      const planned: PlannedPage = {
        page,
        ...(parent ? { parent } : {}),
        ...(prev ? { prev } : {}),
        key: '',
        childDir: '',
        rebases: inherited,
      };
      if (page.kind === 'document') {
        const dir = parent ? parent.childDir : config.root;
        const hasChildren = page.children.length > 0;
        let path: string;
        if (!old) {
          path =
            page === firstDocument && !readmeKept
              ? config.readme
              : `${dir}${slugOf(page)}${hasChildren ? '/README.md' : '.md'}`;
        } else {
          // A parent Folio deleted is no parent: the page now sits elsewhere, and moves with it.
          const oldParent = old.parent === undefined ? undefined : (idOfKey.get(old.parent) ?? '#deleted');
          const moved = oldParent !== parentPage?.id;
          const renamed = slugOf(old) !== slugOf(page) && old.key !== config.readme;
          const rebase = inherited.find((r) => old.key.startsWith(r.from));
          if (moved || renamed) {
            const folder = old.key === config.readme ? hasChildren : isReadmePath(old.key);
            path = `${dir}${slugOf(page)}${folder ? '/README.md' : '.md'}`;
          } else path = rebase ? rebase.to + old.key.slice(rebase.from.length) : old.key;
          planned.oldPath = old.key;
        }
        if (unique && path !== old?.key && taken.has(path)) path = uniquePath(path, (p) => taken.has(p));
        if (unique) taken.add(path);
        planned.path = path;
        planned.key = path;
        planned.childDir = subtreeDir(path, page);
        if (old && path !== old.key)
          planned.rebases = [{ from: subtreeDir(old.key, old), to: planned.childDir }, ...inherited];
      } else {
        planned.key = keyOf(page.kind, slugOf(page));
        if (page.kind === 'group') planned.childDir = groupDir(page);
      }
      byPage.set(page, planned);
      return planned;
    });
  };
  const firstPass = pass(new Set(), false);
  for (const p of firstPass) if (p.path !== undefined && p.path === p.oldPath) reserved.add(p.path);
  const pages = pass(reserved, true);

  const files = planFiles(content.files, previous, config, reserved);
  const kept = new Set(files.map((f) => f.prev).filter((f) => f !== undefined));
  return {
    pages,
    files,
    deletedPages,
    deletedFiles: (previous?.files ?? []).filter((f) => !kept.has(f) && f.id),
    strangers,
    strangerFiles: (previous?.files ?? []).filter((f) => !kept.has(f) && !f.id),
  };
}

/** Asset paths: kept while the name is, else `.gitbook/assets/<name>` made unique. */
function planFiles(
  files: readonly SpaceFile[],
  previous: Baseline | undefined,
  config: DocsConfig,
  taken: Set<string>,
): PlannedFile[] {
  const byId = new Map((previous?.files ?? []).filter((f) => f.id).map((f) => [f.id!, f]));
  const unbound = (previous?.files ?? []).filter((f) => !f.id);
  const used = new Set<BaselineFile>();
  const prevOf = new Map<SpaceFile, BaselineFile>();
  for (const file of files) {
    const prev =
      byId.get(file.id) ?? unbound.find((u) => !used.has(u) && u.sha256 === file.sha256 && u.name === file.name);
    if (prev) {
      prevOf.set(file, prev);
      used.add(prev);
    }
  }
  // Unbound files no space file matched stay where they are, as files Folio does not know.
  for (const u of unbound) if (!used.has(u)) taken.add(u.path);
  for (const [file, prev] of prevOf) if (prev.name === file.name) taken.add(prev.path);
  return files.map((file) => {
    const prev = prevOf.get(file);
    if (prev && prev.name === file.name) return { file, prev, path: prev.path };
    const wanted = `${config.assets}${downloadName(file.name)}`;
    const path = prev?.path === wanted ? wanted : uniquePath(wanted, (p) => taken.has(p));
    taken.add(path);
    return prev ? { file, prev, path } : { file, path };
  });
}
