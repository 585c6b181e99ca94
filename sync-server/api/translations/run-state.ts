import { createHash } from 'node:crypto';
import type { PageState } from '../../store/translations';
import type { ContentSnapshot, PageText } from './mirror';

/**
 * What a run decides page by page, from hashes the previous run left (store/translations.ts
 * PageState): a source page goes to the engine when its text (or the settings it is translated
 * with) changed since, or when the result lacks it; a result page whose text is neither what a
 * run wrote nor what it proposed was edited by hand, and is not overwritten.
 */

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

type SourcePage = ContentSnapshot['pages'][number];

/** The text of a page that translation reads and writes (a body only for documents). */
export function textOf(page: SourcePage): PageText {
  return {
    title: page.title,
    ...(page.description ? { description: page.description } : {}),
    ...(page.kind === 'document' ? { markdown: page.markdown } : {}),
  };
}

export const resultHash = (text: PageText) => sha256([text.title, text.description ?? '', text.markdown ?? '']);
export const sourceHash = (page: SourcePage, settings: string) => sha256([resultHash(textOf(page)), settings]);

export interface RunPlan {
  /** Pages to translate and write into the result. */
  write: string[];
  /** Pages edited by hand in the result whose source changed: translated and proposed for review. */
  review: string[];
  /** Source hash of every source page. */
  hashes: Map<string, string>;
  /** Result pages the source does not have that were made or edited in the result: never deleted. */
  keep: string[];
}

export function planRun(
  source: ContentSnapshot,
  result: ContentSnapshot,
  previous: Readonly<Record<string, PageState>>,
  settings: string,
  /** Hashes a run killed while writing had recorded as what it was writing. */
  writing: Readonly<Record<string, string>>,
): RunPlan {
  const inResult = new Map(result.pages.map((p) => [p.id, p]));
  const plan: RunPlan = { write: [], review: [], hashes: new Map(), keep: [] };
  for (const page of source.pages) {
    const hash = sourceHash(page, settings);
    plan.hashes.set(page.id, hash);
    const before = previous[page.id];
    const current = inResult.get(page.id);
    const edited = before !== undefined && current !== undefined && isEditedByHand(current, before, writing[page.id]);
    if (before?.source === hash && current && !edited) continue;
    if (edited) {
      if (before.source !== hash) plan.review.push(page.id);
      continue;
    }
    plan.write.push(page.id);
  }
  for (const page of result.pages) {
    if (plan.hashes.has(page.id)) continue;
    const before = previous[page.id];
    if (!before || isEditedByHand(page, before, writing[page.id])) plan.keep.push(page.id);
  }
  return plan;
}

function isEditedByHand(current: SourcePage, before: PageState, writing: string | undefined): boolean {
  const hash = resultHash(textOf(current));
  return hash !== before.result && hash !== before.proposed && hash !== writing;
}

/** The page state after a run: written pages record what was written, reviewed ones what was proposed. */
export function nextState(
  plan: RunPlan,
  previous: Readonly<Record<string, PageState>>,
  written: ReadonlyMap<string, PageText>,
): Record<string, PageState> {
  const out: Record<string, PageState> = {};
  for (const [id, hash] of plan.hashes) {
    const text = written.get(id);
    if (plan.review.includes(id) && text) out[id] = { ...previous[id]!, source: hash, proposed: resultHash(text) };
    else if (text) out[id] = { source: hash, result: resultHash(text) };
    else if (previous[id]) out[id] = previous[id];
  }
  return out;
}
