import * as Y from 'yjs';
import { ProtocolError } from './protocol';

/**
 * Checks on a client's Yjs update BEFORE it is stored. The server commits an
 * update before applying it, so an update that cannot even be decoded must
 * never reach the log: it would be replayed (and fail) on every load.
 */

/** A decoded update: its structs and delete set. */
export type DecodedUpdate = ReturnType<typeof Y.decodeUpdate>;

/**
 * Decodes a Yjs v1 update completely (every struct, every content, the delete
 * set) or throws ProtocolError. Random or truncated bytes fail here.
 */
export function decodeUpdateStrict(update: Uint8Array): DecodedUpdate {
  try {
    return Y.decodeUpdate(update);
  } catch {
    throw new ProtocolError('malformed Yjs update');
  }
}

/** True when every clock of `client` in [clock, clock + len) is known to `doc` and deleted there. */
function rangeDeleted(doc: Y.Doc, client: number, clock: number, len: number): boolean {
  const end = clock + len;
  if (end > Y.getState(doc.store, client)) return false;
  const structs = doc.store.clients.get(client);
  if (!structs) return false;
  for (let i = Y.findIndexSS(structs, clock); i < structs.length; i++) {
    const struct = structs[i]!;
    if (struct.id.clock >= end) break;
    if (!struct.deleted) return false;
  }
  return true;
}

/**
 * Whether applying the update would change `doc`: a struct beyond the doc's
 * state vector, or a deletion of something not deleted yet. Used for two
 * things: a read-only client re-sending content the server already has (a
 * reconnect's SyncStep2, y-indexeddb replaying its cache) is harmless and must
 * not get it disconnected; and no-op writes are not worth a log row.
 */
export function updateChanges(doc: Y.Doc, decoded: DecodedUpdate): boolean {
  for (const struct of decoded.structs) {
    if (struct instanceof Y.Skip) continue;
    if (struct.id.clock + struct.length > Y.getState(doc.store, struct.id.client)) return true;
  }
  for (const [client, ranges] of decoded.ds.clients) {
    for (const range of ranges) {
      if (range.len > 0 && !rangeDeleted(doc, client, range.clock, range.len)) return true;
    }
  }
  return false;
}
