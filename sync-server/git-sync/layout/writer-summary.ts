import type { DocsConfig } from './config';
import { parseSummaryFile } from './summary-parse';
import { writeSummary, type WantedEntry } from './summary-write';
import { dirOf, relativeHref } from './paths';
import type { Plan, PlannedPage } from './writer-plan';
import type { Baseline } from './types';

/**
 * SUMMARY.md for a planned layout. A repository that has one gets it rewritten where the
 * structure changed (summary-write.ts); one without gets one only when Folio changed the
 * structure, since folders cannot say Folio's order, groups or link pages; a new repository gets
 * one. The readme stays unlisted if it was (GitBook makes it the first page anyway).
 */

export interface SummaryResult {
  /** The text to hold (undefined: the repository keeps having none). */
  text?: string;
  /** Per page id: its entry's index in that text, and the title its line shows. */
  entries: Map<string, { entry: number; title: string }>;
}

/** Whether the page tree differs from the baseline's in anything but titles and bodies. */
function structureChanged(plan: Plan, previous: Baseline): boolean {
  const before = previous.pages.filter((p) => !plan.strangers.includes(p));
  if (before.length !== plan.pages.length || plan.deletedPages.length > 0) return true;
  return plan.pages.some((p, i) => {
    const prev = before[i]!;
    const parentKey = p.parent?.prev?.key;
    return (
      p.prev !== prev ||
      p.page.kind !== prev.kind ||
      p.key !== prev.key ||
      parentKey !== prev.parent ||
      (p.page.href ?? '') !== (prev.href ?? '')
    );
  });
}

export function planSummary(plan: Plan, previous: Baseline | undefined, config: DocsConfig): SummaryResult {
  const old = previous?.summaryText === undefined ? undefined : parseSummaryFile(previous.summaryText);
  const entries = new Map<string, { entry: number; title: string }>();
  if (!old && previous && previous.pages.length > 0 && !structureChanged(plan, previous)) return { entries };
  if (plan.pages.length === 0 && !old) return { entries };
  const summaryDir = dirOf(config.summary);
  const listed = new Set<PlannedPage>();
  const wanted: WantedEntry[] = [];
  for (const p of plan.pages) {
    const prev = p.prev?.kind === p.page.kind ? p.prev : undefined;
    // The readme, unlisted, stays so; its child pages are listed at the top level.
    if (old && prev && prev.entry === undefined && p.path === config.readme) continue;
    let parent = p.parent;
    while (parent && !listed.has(parent)) parent = parent.parent;
    const old$ = old && prev?.entry !== undefined ? { old: prev.entry } : {};
    wanted.push({
      id: p.page.id,
      kind: p.page.kind === 'group' ? 'group' : 'page',
      title: p.page.title,
      ...(p.page.kind === 'document' ? { href: relativeHref(summaryDir, p.path!) } : {}),
      ...(p.page.kind === 'link' ? { href: p.page.href ?? '' } : {}),
      ...(parent ? { parent: parent.page.id } : {}),
      ...old$,
      titleChanged: !prev || prev.title !== p.page.title,
      hrefChanged: !prev || (p.page.kind === 'link' ? prev.href !== p.page.href : p.oldPath !== p.path),
    });
    listed.add(p);
  }
  // Old entries no baseline page stands for were skipped by the read (missing file…): they stay.
  const known = new Set((previous?.pages ?? []).filter((p) => p.entry !== undefined).map((p) => p.entry!));
  for (const s of plan.strangers) if (s.entry !== undefined) known.delete(s.entry);
  const keep = new Set(old ? old.entries.map((_, i) => i).filter((i) => !known.has(i)) : []);
  const { text, ids } = writeSummary(wanted, old, keep);
  // Each page's entry in the new text, and the title its line shows, read back from the text itself.
  const parsed = parseSummaryFile(text);
  ids.forEach((id, i) => {
    const entry = parsed.entries[i];
    if (id !== undefined && entry) entries.set(id, { entry: i, title: entry.title });
  });
  return { text, entries };
}
