import * as Y from 'yjs';

/**
 * The CRDT side of change requests, as pure functions over Y.Docs (no server,
 * no storage), so property tests and benchmarks call exactly what the routes
 * call. Fork, merge and update-from-main are all "send the other side what it
 * lacks": Yjs merges concurrent edits of both sides, never overwriting text.
 */

/** The whole state of `source`: what a new fork starts from. */
export function forkUpdate(source: Y.Doc): Uint8Array {
  return Y.encodeStateAsUpdate(source);
}

/** What `from` has that `to` lacks (insertions past `to`'s state vector, plus deletions). */
export function missingUpdate(from: Y.Doc, to: Y.Doc): Uint8Array {
  return Y.encodeStateAsUpdate(from, Y.encodeStateVector(to));
}

/** Applies to `target` what `source` has and it lacks (merge: CR -> space; update: space -> CR). */
export function pullInto(target: Y.Doc, source: Y.Doc, origin?: unknown): Uint8Array {
  const update = missingUpdate(source, target);
  Y.applyUpdate(target, update, origin);
  return update;
}

type DeleteItem = { clock: number; len: number };
type DeleteSet = { clients: Map<number, DeleteItem[]> };

/** True when every clock of [clock, clock+len) is covered by the sorted, merged ranges `items`. */
function covered(items: DeleteItem[] | undefined, clock: number, len: number): boolean {
  if (!items) return false;
  let lo = 0;
  let hi = items.length - 1;
  // Binary search for the last range starting at or before `clock`.
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid]!.clock <= clock) lo = mid + 1;
    else hi = mid - 1;
  }
  let i = hi;
  let at = clock;
  const end = clock + len;
  while (i >= 0 && i < items.length && at < end) {
    const r = items[i]!;
    if (r.clock > at || r.clock + r.len <= at) return false;
    at = r.clock + r.len;
    i++;
  }
  return at >= end;
}

/**
 * Whether `source` holds changes `target` lacks: an insertion past target's
 * state vector, or a deletion target has not applied (deletions do not move
 * state vectors, so both are compared). This is `outdated` for a change
 * request (source = space, target = fork).
 */
export function hasChangesFor(source: Y.Doc, target: Y.Doc): boolean {
  const targetSv = Y.encodeStateVector(target);
  const sv = Y.decodeStateVector(targetSv);
  for (const [client, clock] of Y.decodeStateVector(Y.encodeStateVector(source))) {
    if ((sv.get(client) ?? 0) < clock) return true;
  }
  const sourceDs = Y.createDeleteSetFromStructStore(source.store) as unknown as DeleteSet;
  const targetDs = Y.createDeleteSetFromStructStore(target.store) as unknown as DeleteSet;
  for (const [client, items] of sourceDs.clients) {
    const theirs = targetDs.clients.get(client);
    for (const item of items) if (!covered(theirs, item.clock, item.len)) return true;
  }
  return false;
}
