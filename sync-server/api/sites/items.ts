import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, notFound } from '../../http/errors';
import { pageArray, type PageRequest } from '../../http/paging';
import type { SiteTree } from '../../sites/tree';
import { deleteItemRow, setItemPosition, type SiteItemTable } from '../../store/sites';
import { requireSiteTree, siteForDelete, type SiteAccess, type SiteRef } from './access';
import { keyForMove, type MovePosition, type Ordered } from './ordering';
import { loadView, type SiteView } from './view';

/**
 * The ordered items of a site's structure (sections, section groups, site
 * spaces) are read, changed, moved and deleted the same way: load the whole
 * tree, ask policy, find the item (404), write, answer with the item as the
 * caller now sees it. A SiteItemKind says what differs per kind; the
 * functions below are the one copy of what does not.
 */
export interface SiteItemKind<Row extends Ordered, Out> {
  /** Its table (for moves and deletes). */
  table: SiteItemTable;
  /** Its name in a 404 ("Site section"). */
  notFoundName: string;
  find(tree: SiteTree, id: string): Row | undefined;
  present(v: SiteView, row: Row): Out;
  /** How a refusal (403) words each write. */
  phrases: { update: string; move: string; delete: string };
  /** Its siblings in order, itself included, and what keyForMove calls them. */
  siblings(tree: SiteTree, row: Row): readonly Ordered[];
  siblingName: string;
  /** When set, move pointers must name an item of this kind that exists (400 "unknown <name>" otherwise). */
  pointerName?: string;
  /** Removes an item of a site the caller may change (default: deletes its row). */
  remove?(ctx: AppContext, access: SiteAccess, id: string): Promise<void>;
}

/** An item of a loaded tree, or 404. */
export function requireItem<Row extends Ordered, Out>(kind: SiteItemKind<Row, Out>, tree: SiteTree, id: string): Row {
  const row = kind.find(tree, id);
  if (!row) throw notFound(kind.notFoundName);
  return row;
}

/** A page of `rows` (chosen from the tree, in display order), presented for the caller. */
export async function listItems<Row extends Ordered, Out>(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  kind: SiteItemKind<Row, Out>,
  rows: (tree: SiteTree) => Row[],
  page: PageRequest,
  shareKey?: string,
) {
  const v = await loadView(ctx, p, ref, shareKey);
  const result = pageArray(rows(v.tree), page);
  return { ...result, items: result.items.map((row) => kind.present(v, row)) };
}

/** The item as the caller sees it (after a write: loaded afresh). */
export async function itemObjectFor<Row extends Ordered, Out>(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  kind: SiteItemKind<Row, Out>,
  id: string,
): Promise<Out> {
  const v = await loadView(ctx, p, ref);
  return kind.present(v, requireItem(kind, v.tree, id));
}

/**
 * An item the caller may change: 404 unless they see the site, 403 unless
 * policy lets them manage it (worded by `phrase`), then 404 unless it is there.
 */
export async function requireItemToChange<Row extends Ordered, Out>(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  kind: SiteItemKind<Row, Out>,
  id: string,
  phrase = kind.phrases.update,
) {
  const { tree, ...access } = await requireSiteTree(ctx, p, ref, 'manage', phrase);
  return { tree, access, row: requireItem(kind, tree, id) };
}

/** Moves an item among its siblings (400 for a position that names no sibling or changes nothing). */
export async function moveItem<Row extends Ordered, Out>(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  kind: SiteItemKind<Row, Out>,
  id: string,
  position: MovePosition,
): Promise<Out> {
  const { tree, row } = await requireItemToChange(ctx, p, ref, kind, id, kind.phrases.move);
  if (kind.pointerName) {
    for (const sibling of [position.before, position.after]) {
      if (sibling !== undefined && !kind.find(tree, sibling))
        throw badRequest(`Invalid position: unknown ${kind.pointerName} "${sibling}"`);
    }
  }
  const key = keyForMove(kind.siblings(tree, row), id, position, kind.siblingName);
  await setItemPosition(ctx.db, kind.table, id, key);
  return itemObjectFor(ctx, p, ref, kind, id);
}

/** Deletes an item; 204 also when it (or the site) is not there or not visible to the caller. */
export async function deleteItem<Row extends Ordered, Out>(
  ctx: AppContext,
  p: Principal,
  ref: SiteRef,
  kind: SiteItemKind<Row, Out>,
  id: string,
): Promise<void> {
  const access = await siteForDelete(ctx, p, ref, 'manage', kind.phrases.delete);
  if (!access) return;
  if (kind.remove) await kind.remove(ctx, access, id);
  else await deleteItemRow(ctx.db, kind.table, ref.siteId, id);
}
