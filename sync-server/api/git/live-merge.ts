import type { AppContext } from '../../context';
import { ContentDoc } from '../../../shared/doc';
import type { Baseline } from '../../git-sync/layout';
import type { ContentChange } from '../change-request-content/schemas';
import type { ImportPlan } from './import-plan';
import type { diff3Merge } from 'node-diff3';

type Diff3Merge = typeof diff3Merge;

/**
 * The repository's edits of existing pages' bodies, applied to the pages as they are live — a
 * writer may be typing in one right now, and their keystrokes reach revisions a moment later. Each
 * body is a three-way merge by lines (diff3) of the live text and the repository's over the last
 * sync's, computed and written in one synchronous change of the live document (nothing typed can
 * fall between the read and the write), as minimal text edits (ContentDoc.setMarkdown), so the
 * writer's lines and cursor stay. Where the same lines changed on both sides the page is left as
 * it is and reported as a conflict.
 */

export interface BodyUpdate {
  pageId: string;
  /** The repository's body. */
  markdown: string;
}

export interface BodyOutcome {
  /** Pages whose body is now a merge (not the repository's text): the baseline keeps the repository's. */
  merged: Set<string>;
  /** Pages whose same lines changed on both sides: untouched here, for a change request. */
  conflicts: Set<string>;
}

/** Takes the body edits out of the plan's updates (an update left with nothing else to do is dropped). */
export function takeBodies(plan: ImportPlan): BodyUpdate[] {
  const bodies: BodyUpdate[] = [];
  plan.changes = plan.changes.flatMap((c): ContentChange[] => {
    if (c.operation !== 'update_page' || !c.document || !('markdown' in c.document)) return [c];
    bodies.push({ pageId: c.page, markdown: c.document.markdown });
    const { document: _body, ...rest } = c;
    return Object.keys(rest).length > 2 ? [rest as ContentChange] : [];
  });
  return bodies;
}

export async function applyBodies(
  ctx: AppContext,
  docName: string,
  bodies: readonly BodyUpdate[],
  previous: Baseline | undefined,
  options: { force?: boolean; userId: string },
): Promise<BodyOutcome> {
  const outcome: BodyOutcome = { merged: new Set(), conflicts: new Set() };
  if (bodies.length === 0) return outcome;
  // node-diff3 (a diff3 implementation) loads with the first import that writes a body.
  const { diff3Merge } = await import('node-diff3');
  const base = new Map((previous?.pages ?? []).flatMap((p) => (p.id ? [[p.id, p.markdown] as const] : [])));
  await ctx.hub.change(
    docName,
    (doc) => {
      const content = new ContentDoc(doc, { now: () => ctx.clock.now() });
      for (const { pageId, markdown } of bodies) {
        if (!content.hasPage(pageId)) continue;
        const live = content.getMarkdown(pageId);
        const was = base.get(pageId);
        let text = markdown;
        if (!options.force && was !== undefined && live !== was) {
          const merged = threeWay(diff3Merge, live, was, markdown);
          if (merged === undefined) {
            outcome.conflicts.add(pageId);
            continue;
          }
          text = merged;
          if (merged !== markdown) outcome.merged.add(pageId);
        }
        if (text !== live) {
          content.setMarkdown(pageId, text);
          content.touchPage(pageId);
        }
      }
    },
    { userId: options.userId, reason: 'git-import' },
  );
  return outcome;
}

/** The diff3 merge of `mine` and `theirs` over `base` by lines, or undefined where both changed the same lines. */
function threeWay(diff3Merge: Diff3Merge, mine: string, base: string, theirs: string): string | undefined {
  const blocks = diff3Merge(mine.split('\n'), base.split('\n'), theirs.split('\n'), { excludeFalseConflicts: true });
  const lines: string[] = [];
  for (const block of blocks) {
    if (block.conflict) return undefined;
    lines.push(...(block.ok ?? []));
  }
  return lines.join('\n');
}
