import type { StoredPage } from '../../docs/revision-store';
import type { Baseline, BaselinePage, RepoPage } from '../../git-sync/layout';
import type { ContentChange } from '../change-request-content/schemas';

/**
 * What an import changes in the space: a three-way comparison of the repository as read now, the
 * baseline (the tree both sides held at the last sync) and the space's current content. Only what
 * changed in the repository since the last sync is applied, so pages edited only in Folio keep
 * their edits (they go out with the next export). A page whose body changed on both sides is
 * merged by lines with its live text (live-merge.ts); where the same lines changed it is a
 * conflict, which the import leaves to a change request holding the repository's version — never a
 * silent overwrite (unless `force`). The changes are a content batch (change-request-content), applied
 * to the live document as ordinary edits: a body changes word by word, so a writer typing in the
 * same space keeps every keystroke.
 */

/** A page of the space, with where it is. */
interface Current {
  page: StoredPage;
  parent: string | null;
}

export interface ImportPlan {
  changes: ContentChange[];
  /** Batch ref of each new page (its repository key), for binding ids into the new baseline. */
  newPageRefs: string[];
  /** Pages whose same lines changed on both sides (found by live-merge.ts): their repository version, for a change request. */
  conflicts: RepoPage[];
  /** New pages that must become groups or links once inserted (a batch inserts documents only). */
  kinds: { ref: string; kind: 'group' | 'link'; href?: string }[];
  /** Pages removed from the repository that were edited in Folio: kept, and said so. */
  keptEdited: string[];
}

type Fields = { title: string; description?: string; icon?: string; emoji?: string; hidden?: boolean };

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

function fieldsOfStored(p: StoredPage): Fields {
  return {
    title: String(p.title ?? ''),
    ...(str(p.description) ? { description: str(p.description) } : {}),
    ...(str(p.icon) ? { icon: str(p.icon) } : {}),
    ...(str(p.emoji) ? { emoji: str(p.emoji) } : {}),
    ...(p.hidden === true ? { hidden: true } : {}),
  };
}

function fieldsOf(p: Fields): Fields {
  return {
    title: p.title,
    ...(p.description ? { description: p.description } : {}),
    ...(p.icon ? { icon: p.icon } : {}),
    ...(p.emoji ? { emoji: p.emoji } : {}),
    ...(p.hidden ? { hidden: true } : {}),
  };
}

const sameFields = (a: Fields, b: Fields) => JSON.stringify(fieldsOf(a)) === JSON.stringify(fieldsOf(b));
const sameContent = (a: { markdown: string } & Fields, b: { markdown: string } & Fields) =>
  a.markdown === b.markdown && sameFields(a, b);

function currentPages(pages: readonly StoredPage[]): Map<string, Current> {
  const out = new Map<string, Current>();
  const walk = (list: readonly StoredPage[], parent: string | null) => {
    for (const page of list) {
      out.set(page.id, { page, parent });
      walk(page.pages ?? [], page.id);
    }
  };
  walk(pages, null);
  return out;
}

/** The metadata part of an update: only what differs from the space (GitBook's RevisionPageUpdate fields). */
function fieldChanges(from: Fields, to: Fields) {
  const out: Record<string, unknown> = {};
  if (to.title !== from.title) out.title = to.title || 'Untitled';
  for (const key of ['description', 'icon', 'emoji'] as const)
    if ((to[key] ?? '') !== (from[key] ?? '')) out[key] = to[key] ?? '';
  if ((to.hidden ?? false) !== (from.hidden ?? false)) out.hidden = to.hidden ?? false;
  return out;
}

/** The fields `to` changed from `was` (only those: a field changed in Folio alone keeps its value). */
function changedFields(was: Fields, to: Fields): Partial<Fields> {
  const out: Partial<Fields> = {};
  if (to.title !== was.title) out.title = to.title;
  for (const key of ['description', 'icon', 'emoji'] as const)
    if ((to[key] ?? '') !== (was[key] ?? '')) out[key] = to[key] ?? '';
  if ((to.hidden ?? false) !== (was.hidden ?? false)) out.hidden = to.hidden ?? false;
  return out;
}

/**
 * The plan. `previous` is the baseline of the last sync (undefined: first import, when the space's
 * pages are replaced only with `force` — the caller refuses otherwise), `pages` the space's
 * current tree, `repo` what readRepository gave.
 */
export function planImport(
  repo: readonly RepoPage[],
  previous: Baseline | undefined,
  pages: readonly StoredPage[],
  options: { force?: boolean } = {},
): ImportPlan {
  const current = currentPages(pages);
  const base = new Map<string, BaselinePage>();
  for (const p of previous?.pages ?? []) if (p.id) base.set(p.id, p);
  const plan: ImportPlan = { changes: [], newPageRefs: [], conflicts: [], kinds: [], keptEdited: [] };
  const seen = new Set<string>();

  /** Whether the existing pages of `list` already sit under `parentId` in this order (then nothing moves). */
  const inPlace = (list: readonly RepoPage[], parentId: string | null | undefined) => {
    if (parentId === undefined) return false;
    const wanted = list.flatMap((r) => (r.id !== undefined && current.has(r.id) ? [r.id] : []));
    if (wanted.some((id) => current.get(id)!.parent !== parentId)) return false;
    const order = [...current.values()].filter((c) => c.parent === parentId && wanted.includes(c.page.id));
    return order.every((c, i) => c.page.id === wanted[i]);
  };

  const visit = (list: readonly RepoPage[], parent: { id?: string; ref?: string } | null) => {
    const settled = inPlace(list, parent === null ? null : parent.id);
    list.forEach((r, at) => {
      const here = r.id !== undefined ? current.get(r.id) : undefined;
      if (r.id !== undefined && here) {
        seen.add(r.id);
        const was = base.get(r.id);
        const mine = fieldsOfStored(here.page);
        const update: Record<string, unknown> = {};
        // The fields the repository changed since the last sync (all of them without a baseline, or with force).
        const theirs = was && !options.force ? changedFields(was, r) : fieldsOf(r);
        Object.assign(update, fieldChanges(mine, { ...mine, ...theirs }));
        // The body: the repository's, merged into the live text by mergeWithLive (a page edited on both
        // sides is merged by lines, or becomes a conflict when the same lines changed).
        if (r.kind === 'document' && (!was || r.markdown !== was.markdown) && r.markdown !== here.page.markdown)
          update.document = { markdown: r.markdown };
        // Where it sits: under the repository's parent, at the repository's place among its siblings.
        if (!settled) {
          update.into = parent === null ? null : (parent.id ?? { ref: parent.ref });
          update.at = at;
        }
        if (Object.keys(update).length > 0)
          plan.changes.push({ operation: 'update_page', page: r.id, ...update } as ContentChange);
        visit(r.children, { id: r.id });
        return;
      }
      // New in the repository (or deleted in Folio and edited since in the repository): a new page.
      plan.newPageRefs.push(r.key);
      plan.changes.push({
        operation: 'insert_page',
        ref: r.key,
        title: r.title || 'Untitled',
        ...(r.description ? { description: r.description } : {}),
        ...(r.icon ? { icon: r.icon } : {}),
        ...(r.emoji ? { emoji: r.emoji } : {}),
        ...(r.hidden ? { hidden: true } : {}),
        ...(parent?.id ? { into: parent.id } : parent?.ref ? { into: { ref: parent.ref } } : {}),
        at,
        document: { markdown: r.kind === 'document' ? r.markdown : '' },
      } as unknown as ContentChange);
      if (r.kind !== 'document') plan.kinds.push({ ref: r.key, kind: r.kind, ...(r.href ? { href: r.href } : {}) });
      visit(r.children, { ref: r.key });
    });
  };
  visit(repo, null);

  // Gone from the repository since the last sync: deleted here too, unless edited in Folio since.
  for (const [id, was] of base) {
    const here = current.get(id);
    if (seen.has(id) || !here) continue;
    const mine = { markdown: String(here.page.markdown ?? ''), ...fieldsOfStored(here.page) };
    if (sameContent(mine, was) || options.force) plan.changes.push({ operation: 'delete_page', page: id });
    else plan.keptEdited.push(id);
  }
  // The first import replaces the space's pages (the caller asks for `force` when there are some).
  if (!previous)
    for (const [id, c] of current)
      if (!seen.has(id) && c.parent === null) plan.changes.push({ operation: 'delete_page', page: id });
  return plan;
}
