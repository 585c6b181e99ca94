import * as Y from 'yjs';
import type { AppContext } from '../../context';
import { applyBatch, trialBatch, type BatchPlan, type PageOutcome } from './apply';
import { BodyEdits, type TextPair } from './body-edits';
import type { ContentChange } from './schemas';

/**
 * Applies a batch to the live document `name` without running a long diff on
 * the event loop (body-edits.ts):
 * 1. a dry run on a copy of the document as it is now refuses an invalid
 *    batch before anything is written, and lists the page bodies it sets;
 * 2. their edits are computed, large ones in a worker (awaited: sockets and
 *    other requests are served meanwhile);
 * 3. in ONE server-side change (hub.change: committed before anyone sees it),
 *    the batch is applied with those edits. When the document changed in the
 *    meantime (a collaborator typed), the batch is tried on a copy again, and
 *    bodies whose text moved under it are diffed again, up to RETRIES times;
 *    then whatever is still missing is diffed inline within budget or
 *    replaced as one span. A refused change leaves the document untouched.
 */

/** Times step 2 is redone for texts that changed under it before the batch is applied anyway. */
const RETRIES = 2;

const sameState = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * See the file comment; resolves with what happened to each page, after the
 * commit. `onApplied` runs inside the change, once the batch is applied and
 * before it is committed (files.ts puts staged file bytes in place there).
 */
export async function applyToLiveDocument(
  ctx: AppContext,
  name: string,
  changes: readonly ContentChange[],
  plan: BatchPlan,
  { origin, onApplied }: { origin: { userId?: string; reason?: string }; onApplied?: () => void },
): Promise<PageOutcome[]> {
  const now = () => ctx.clock.now();
  const edits = new BodyEdits();
  let missing: TextPair[] = [];
  // Bodies with links resolved on the state `seen` (reused when the document is still in that state).
  let bodies = new Map<number, string>();
  let seen = await ctx.hub.withDoc(name, (doc) => {
    trialBatch(doc, changes, plan, now, { editsFor: edits.collect(missing), bodies });
    return Y.encodeStateVector(doc);
  });
  for (let attempt = 0; ; attempt++) {
    await edits.compute(missing);
    missing = [];
    let outcomes: PageOutcome[] | undefined;
    await ctx.hub.change(
      name,
      (doc) => {
        const state = Y.encodeStateVector(doc);
        // Unchanged since the last dry run: that run proved the batch applies, and every body's edits are known.
        if (!sameState(state, seen)) {
          bodies = new Map();
          trialBatch(doc, changes, plan, now, { editsFor: edits.collect(missing), bodies });
          seen = state;
          if (missing.length > 0 && attempt < RETRIES) return;
        }
        outcomes = applyBatch(doc, changes, plan, now, { editsFor: edits.apply, bodies });
        onApplied?.();
      },
      origin,
    );
    if (outcomes) {
      ctx.log.debug({ document: name, attempts: attempt + 1, ...edits.stats }, 'content batch applied');
      return outcomes;
    }
  }
}
