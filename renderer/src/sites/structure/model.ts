import type { MoveTo, SiteSection, SiteSectionGroup, SiteSpace, TopLevelRef } from '../site-api';

/**
 * A site's structure as the structure screen shows it, built from the API's three lists, and the
 * plans of the moves it makes. Pure functions (no requests), so they are unit-tested alone.
 */

/** What the structure screen loads: the API's lists, each in display order. */
export interface SiteStructure {
  /** Every section, groups' sections in place. */
  sections: SiteSection[];
  groups: SiteSectionGroup[];
  /** Every site space (in sections, or at the root level when the site has no sections). */
  siteSpaces: SiteSpace[];
}

/** A top-level entry: a section outside groups, or a group (with its sections). */
export type TopLevelItem =
  | { type: 'section'; id: string; section: SiteSection }
  | { type: 'group'; id: string; group: SiteSectionGroup; sections: SiteSection[] };

/**
 * The top level in display order. The section list gives the order of ungrouped sections and of
 * groups that hold sections; an empty group (absent from it) goes right after the group listed
 * before it, else before the group listed after it, else at the end — the API lists no mixed
 * top level, and this is where it was when its last section left.
 */
export function topLevelOf(structure: SiteStructure): TopLevelItem[] {
  const groupItem = (group: SiteSectionGroup): TopLevelItem => ({
    type: 'group',
    id: group.id,
    group,
    sections: structure.sections.filter((s) => s.sectionGroup === group.id),
  });
  const items: TopLevelItem[] = [];
  const placed = new Set<string>();
  for (const section of structure.sections) {
    if (!section.sectionGroup) items.push({ type: 'section', id: section.id, section });
    else if (!placed.has(section.sectionGroup)) {
      const group = structure.groups.find((g) => g.id === section.sectionGroup);
      if (!group) continue;
      placed.add(group.id);
      items.push(groupItem(group));
    }
  }
  structure.groups.forEach((group, index) => {
    if (placed.has(group.id)) return;
    placed.add(group.id);
    const previous = structure.groups
      .slice(0, index)
      .reverse()
      .find((g) => placed.has(g.id));
    const next = structure.groups.slice(index + 1).find((g) => placed.has(g.id));
    const at = previous
      ? items.findIndex((i) => i.id === previous.id) + 1
      : next
        ? items.findIndex((i) => i.id === next.id)
        : items.length;
    items.splice(at, 0, groupItem(group));
  });
  return items;
}

/** Site spaces outside sections (a site without sections publishes these). */
export function rootSiteSpaces(structure: SiteStructure): SiteSpace[] {
  return structure.siteSpaces.filter((s) => !s.section);
}

/** The order `ids` would have with `id` moved to index `to`. */
export function reordered<T extends { id: string }>(items: readonly T[], id: string, to: number): T[] {
  const from = items.findIndex((i) => i.id === id);
  if (from < 0) return [...items];
  const rest = items.filter((i) => i.id !== id);
  const clamped = Math.max(0, Math.min(to, rest.length));
  rest.splice(clamped, 0, items[from]!);
  return rest;
}

/**
 * The move request that puts `id` at index `to` among siblings of one kind (sections of a group,
 * site spaces of a section): before its new next sibling, or after its new previous one.
 * Undefined when it would not change anything (the API answers 400 to such a move).
 */
export function siblingMove(siblings: readonly { id: string }[], id: string, to: number): MoveTo | undefined {
  const from = siblings.findIndex((s) => s.id === id);
  const order = reordered(siblings, id, to);
  const at = order.findIndex((s) => s.id === id);
  if (from < 0 || at === from) return undefined;
  const next = order[at + 1];
  return next ? { before: next.id } : { after: order[at - 1]!.id };
}

/** One request of a top-level move. */
export type TopLevelStep =
  | { kind: 'section'; id: string; to: MoveTo }
  | { kind: 'group'; id: string; to: { before?: TopLevelRef; after?: TopLevelRef } };

const refOf = (item: { type: 'section' | 'group'; id: string }): TopLevelRef => ({
  type: item.type === 'section' ? 'site-section' : 'site-section-group',
  id: item.id,
});

const stepToEnd = (item: { type: 'section' | 'group'; id: string }): TopLevelStep =>
  item.type === 'section' ? { kind: 'section', id: item.id, to: {} } : { kind: 'group', id: item.id, to: {} };

/**
 * The requests that move a top-level item (a section or a group) to index `to`. A group may be
 * placed next to a section or a group, but a section only next to a section: when the section's
 * new neighbours are groups, the neighbouring group moves instead (a one-step move), or the items
 * from the new place on are moved to the end in order (a longer drag). Empty: nothing changes.
 */
export function planTopLevelMove(
  items: readonly { type: 'section' | 'group'; id: string }[],
  id: string,
  to: number,
): TopLevelStep[] {
  const from = items.findIndex((i) => i.id === id);
  const order = reordered(items, id, to);
  const at = order.findIndex((i) => i.id === id);
  if (from < 0 || at === from) return [];
  const moving = items[from]!;
  const next = order[at + 1];
  const previous = order[at - 1];
  if (moving.type === 'group')
    return [{ kind: 'group', id, to: next ? { before: refOf(next) } : { after: refOf(previous!) } }];
  if (next?.type === 'section') return [{ kind: 'section', id, to: { before: next.id } }];
  if (previous?.type === 'section') return [{ kind: 'section', id, to: { after: previous.id } }];
  if (!next) return [{ kind: 'section', id, to: {} }];
  // One step past a group: the group takes the section's place instead (it may point at a section).
  if (Math.abs(at - from) === 1) {
    const group = items[at]!;
    const to = at < from ? { after: refOf(moving) } : { before: refOf(moving) };
    return [{ kind: 'group', id: group.id, to }];
  }
  // Otherwise: the section to the end, then everything that must follow it, in order.
  const steps: TopLevelStep[] = [];
  if (from !== items.length - 1) steps.push(stepToEnd(moving));
  for (const item of order.slice(at + 1)) steps.push(stepToEnd(item));
  return steps;
}

/** Applies a plan to an order as the server would (for tests, and to check a plan). */
export function applyTopLevelSteps<T extends { type: 'section' | 'group'; id: string }>(
  items: readonly T[],
  steps: readonly TopLevelStep[],
): T[] {
  let order = [...items];
  for (const step of steps) {
    const pointer = (p: string | TopLevelRef | undefined) => (typeof p === 'string' ? p : p?.id);
    const before = pointer(step.to.before);
    const after = pointer(step.to.after);
    const rest = order.filter((i) => i.id !== step.id);
    const moved = order.find((i) => i.id === step.id)!;
    const index =
      before !== undefined
        ? rest.findIndex((i) => i.id === before)
        : after !== undefined
          ? rest.findIndex((i) => i.id === after) + 1
          : rest.length;
    rest.splice(index, 0, moved);
    order = rest;
  }
  return order;
}
