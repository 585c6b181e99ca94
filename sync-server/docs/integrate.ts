import * as Y from 'yjs';
import { applyStored } from './persistence';

/**
 * Applying many Yjs updates to a live document at once, and telling what
 * Yjs kept back: the pieces LiveDoc builds a batch from.
 */

/** What one `integrateUpdates` call did. */
export interface Integrated {
  /** Everything the updates changed, as one update (Yjs encodes it from the transaction); undefined: nothing. */
  changed: Uint8Array | undefined;
  /** Updates Yjs could not integrate (what it did integrate of them is kept). */
  failed: number;
}

/**
 * Applies `updates` to `doc` in ONE Yjs transaction with `origin`: one
 * 'update' event, already merged (adjacent inserts of one author become one
 * struct), instead of a transaction per update and a Y.mergeUpdates, which
 * costs more than linear in the number of updates. An update Yjs refuses
 * costs that update only, so the document stays what its peers will see.
 */
export function integrateUpdates(doc: Y.Doc, updates: readonly Uint8Array[], origin: symbol): Integrated {
  const captured: Uint8Array[] = [];
  const capture = (update: Uint8Array, from: unknown) => {
    if (from === origin) captured.push(update);
  };
  let failed: number;
  doc.on('update', capture);
  try {
    failed = applyStored(doc, updates, origin);
  } finally {
    doc.off('update', capture);
  }
  const changed = captured.length === 0 ? undefined : captured.length === 1 ? captured[0] : Y.mergeUpdates(captured);
  return { changed, failed };
}

/** True while Yjs holds structs or deletions of `doc` whose dependencies are missing. */
export function hasPending(doc: Y.Doc): boolean {
  return doc.store.pendingStructs !== null || doc.store.pendingDs !== null;
}

/** What Yjs holds back for `doc`, as object identities (see `pendingChanged`). */
export interface PendingMark {
  structs: unknown;
  update: unknown;
  ds: unknown;
}

export function pendingMark(doc: Y.Doc): PendingMark {
  const { pendingStructs, pendingDs } = doc.store;
  return { structs: pendingStructs, update: pendingStructs?.update, ds: pendingDs };
}

/**
 * Whether updates applied since `mark` left something pending or integrated
 * what was: Yjs then replaces its pending state, or the pending update in it.
 * A pending delete set is re-encoded by every update, so with one this is
 * always true (which errs on the safe side for its callers).
 */
export function pendingChanged(doc: Y.Doc, mark: PendingMark): boolean {
  const { pendingStructs, pendingDs } = doc.store;
  return pendingStructs !== mark.structs || pendingStructs?.update !== mark.update || pendingDs !== mark.ds;
}
