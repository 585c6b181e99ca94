import { WORD_DIFF_MAX_CHARS, type EditsFor } from '../../../shared/doc/replace-text';
import { differingChars, spanEdits, wordEdits, type TextEdit } from '../../../shared/doc/word-edits';
import { wordEditsInWorker } from '../../markdown/text-diff-pool';

/**
 * The page-body edits of one updateChangeRequestContent batch, computed
 * before the batch is applied so that the event loop never runs a long diff
 * (an 8 MB batch of 50 big pages held it 12 s, a 4 MB rewrite of 20 pages
 * 17 s: a word diff per page, run twice, on the main thread):
 * - a body that only gains or only loses text (a new page), or whose
 *   differing part is over WORD_DIFF_MAX_CHARS, is one span: no diff;
 * - small differing parts (the everyday edit) are diffed inline, within a
 *   small budget of event-loop time for the whole batch;
 * - the rest go to a worker thread one after the other, under ONE budget of
 *   worker time for the whole batch; a page left when it is spent, or that
 *   no worker could diff (none could start), is replaced as one span.
 * One span is always exact, only coarser: a collaborator's concurrent typing
 * inside the replaced span is lost, outside it is kept.
 */

/** Event-loop time (ms) the inline diffs of one batch may take together. */
const INLINE_BUDGET_MS = 50;
/** Largest differing part (UTF-16 units, both versions) diffed inline; ~1 ms of line + word diff. */
const INLINE_MAX_CHARS = 16 * 1024;
/** Worker time (ms) the diffs of one batch may take together (a thread's start-up not included). */
const WORKER_BUDGET_MS = 3_000;

/** A page body before and after a change of the batch. */
export interface TextPair {
  current: string;
  next: string;
}

/** How the batch's bodies were changed (logged at debug level). */
export interface BodyEditStats {
  /** Diffed on the event loop. */
  inline: number;
  /** Diffed in a worker. */
  worker: number;
  /** Replaced as one span without a diff because of the size threshold, the budget, or no worker. */
  oneSpan: number;
  /** Only gained or only lost text: one span is the exact diff. */
  plain: number;
}

/** The edits of one batch's page bodies and what is left of its budgets (see the file comment). */
export class BodyEdits {
  /** Edits by `next`, then `current` (the same text may be set from several versions). */
  private readonly known = new Map<string, (TextPair & { edits: TextEdit[] })[]>();
  private inlineMsLeft = INLINE_BUDGET_MS;
  private workerMsLeft = WORKER_BUDGET_MS;
  readonly stats: BodyEditStats = { inline: 0, worker: 0, oneSpan: 0, plain: 0 };

  /** The edits computed for this pair, if any. */
  find(current: string, next: string): TextEdit[] | undefined {
    return this.known.get(next)?.find((k) => k.current === current)?.edits;
  }

  /**
   * For a dry run: adds each pair there are no edits for yet to `missing`
   * and answers one span (the text it leaves is the same; nothing is diffed).
   */
  collect(missing: TextPair[]): EditsFor {
    return (current, next) => {
      if (!this.find(current, next)) missing.push({ current, next });
      return spanEdits(current, next);
    };
  }

  /** For the real run: the computed edits, else (the text changed meanwhile) an inline diff within budget, else one span. */
  readonly apply: EditsFor = (current, next) => this.find(current, next) ?? this.onThisThread(current, next, false);

  /** Computes the edits of `pairs` (see the file comment). Never rejects. */
  async compute(pairs: readonly TextPair[]): Promise<void> {
    const remote: (TextPair & { edits: TextEdit[] })[] = [];
    for (const { current, next } of pairs) {
      if (this.find(current, next)) continue;
      // Remembered at once, so a repeated pair is diffed once; a worker's edits are filled in below.
      const entry = this.remember(current, next, []);
      const edits = this.onThisThread(current, next, true);
      if (edits) entry.edits = edits;
      else remote.push(entry);
    }
    // One at a time, so each diff gets exactly what the earlier ones left of the budget.
    for (const entry of remote) {
      const { current, next } = entry;
      const t0 = performance.now();
      const done = this.workerMsLeft > 0 ? await wordEditsInWorker(current, next, this.workerMsLeft) : undefined;
      this.workerMsLeft -= done?.ms ?? performance.now() - t0;
      if (done) this.stats.worker++;
      else this.stats.oneSpan++;
      entry.edits = done?.edits ?? spanEdits(current, next);
    }
  }

  /** Edits that need no worker: one span or an inline diff; undefined when the pair should go to a worker. */
  private onThisThread(current: string, next: string, worker: true): TextEdit[] | undefined;
  private onThisThread(current: string, next: string, worker: false): TextEdit[];
  private onThisThread(current: string, next: string, worker: boolean): TextEdit[] | undefined {
    const { removed, added } = differingChars(current, next);
    if (removed === 0 || added === 0) {
      this.stats.plain++;
      return spanEdits(current, next);
    }
    const size = removed + added;
    if (size <= INLINE_MAX_CHARS && this.inlineMsLeft > 0) {
      const t0 = performance.now();
      const edits = wordEdits(current, next, Date.now() + this.inlineMsLeft);
      this.inlineMsLeft -= performance.now() - t0;
      this.stats.inline++;
      return edits;
    }
    if (worker && size <= WORD_DIFF_MAX_CHARS && this.workerMsLeft > 0) return undefined;
    this.stats.oneSpan++;
    return spanEdits(current, next);
  }

  private remember(current: string, next: string, edits: TextEdit[]): TextPair & { edits: TextEdit[] } {
    const entry = { current, next, edits };
    const list = this.known.get(next);
    if (list) list.push(entry);
    else this.known.set(next, [entry]);
    return entry;
  }
}
