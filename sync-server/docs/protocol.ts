import * as Y from 'yjs';
import * as encoding from 'lib0/encoding';
import * as decoding from 'lib0/decoding';

/**
 * The y-websocket wire protocol (y-protocols sync + awareness), as pure
 * functions over bytes: parsing never touches a document or a socket, so a
 * malformed frame is rejected before it can reach either.
 *
 * Frame grammar (every integer is a lib0 varUint, every byte string a varUint
 * length followed by the bytes):
 *   0 sync:   0 SyncStep1 <state vector> | 1 SyncStep2 <update> | 2 Update <update>
 *   1 awareness <awareness update>
 *   3 query-awareness
 * (2 = auth is server -> client only.)
 */

export const MESSAGE_SYNC = 0;
export const MESSAGE_AWARENESS = 1;
export const MESSAGE_QUERY_AWARENESS = 3;
const SYNC_STEP_1 = 0;
const SYNC_STEP_2 = 1;
const SYNC_UPDATE = 2;

/** A frame a client may send, decoded. */
export type ClientMessage =
  | { type: 'sync-step-1'; stateVector: Uint8Array }
  | { type: 'sync-step-2' | 'update'; update: Uint8Array }
  | ({ type: 'awareness' } & AwarenessUpdate)
  | { type: 'query-awareness' };

/** One client's entry of an awareness update; `state` is the raw JSON text (exactly "null" = gone). */
export interface AwarenessEntry {
  clientId: number;
  clock: number;
  state: string;
}

/** A decoded awareness update: the entries within the size limit, and how many were over it (dropped). */
export interface AwarenessUpdate {
  entries: AwarenessEntry[];
  oversized: number;
}

/**
 * Largest awareness state of one client, in bytes of JSON. A cursor, a name
 * and a colour take well under 1 kB; without a bound one reader could make
 * the server hold a 30 MB state and send it to every peer and every newcomer.
 */
export const MAX_AWARENESS_STATE_BYTES = 16 * 1024;

/** A frame that does not follow the grammar; the connection answers with close code 4400. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

function readUint(d: decoding.Decoder, what: string): number {
  if (!decoding.hasContent(d)) throw new ProtocolError(`truncated frame: missing ${what}`);
  try {
    return decoding.readVarUint(d);
  } catch {
    throw new ProtocolError(`invalid varint (${what})`);
  }
}

/** A length-prefixed byte string; the explicit bound check stops a forged length from reading past the frame. */
function readBytes(d: decoding.Decoder, what: string): Uint8Array {
  const length = readUint(d, `${what} length`);
  if (length > d.arr.length - d.pos) throw new ProtocolError(`truncated frame: ${what} claims ${length} bytes`);
  return decoding.readUint8Array(d, length);
}

function decodeUtf8(raw: Uint8Array, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw new ProtocolError(`${what} is not UTF-8`);
  }
}

/** Validates a state vector: pairs of varUints (client, clock), nothing after them. */
function checkStateVector(sv: Uint8Array): void {
  const d = decoding.createDecoder(sv);
  const count = readUint(d, 'state vector size');
  for (let i = 0; i < count; i++) {
    readUint(d, 'state vector client');
    readUint(d, 'state vector clock');
  }
  if (decoding.hasContent(d)) throw new ProtocolError('trailing bytes after the state vector');
}

/**
 * Decodes an awareness update, checking every state is JSON (applyAwarenessUpdate
 * would throw mid-update otherwise). States longer than `maxStateBytes` are
 * counted and left out unread: neither decoded nor parsed, so an oversized
 * state costs the server no more than skipping its bytes.
 */
export function parseAwarenessUpdate(
  update: Uint8Array,
  maxStateBytes: number = MAX_AWARENESS_STATE_BYTES,
): AwarenessUpdate {
  const d = decoding.createDecoder(update);
  const count = readUint(d, 'awareness size');
  const entries: AwarenessEntry[] = [];
  let oversized = 0;
  for (let i = 0; i < count; i++) {
    const clientId = readUint(d, 'awareness client');
    const clock = readUint(d, 'awareness clock');
    const raw = readBytes(d, 'awareness state');
    if (raw.byteLength > maxStateBytes) {
      oversized++;
      continue;
    }
    const state = decodeUtf8(raw, 'awareness state');
    let value: unknown;
    try {
      value = JSON.parse(state);
    } catch {
      throw new ProtocolError('awareness state is not JSON');
    }
    // One spelling of "gone" (` null` is valid JSON too), so callers can tell removals apart by text.
    entries.push({ clientId, clock, state: value === null ? 'null' : state });
  }
  if (decoding.hasContent(d)) throw new ProtocolError('trailing bytes after the awareness update');
  return { entries, oversized };
}

/**
 * Decodes one client frame or throws ProtocolError. Strict: unknown types,
 * truncated fields and trailing bytes are all errors, which also makes a random
 * frame very unlikely to pass as a valid one.
 */
export function parseClientMessage(frame: Uint8Array): ClientMessage {
  const d = decoding.createDecoder(frame);
  const type = readUint(d, 'message type');
  let message: ClientMessage;
  if (type === MESSAGE_SYNC) {
    const step = readUint(d, 'sync message type');
    const payload = readBytes(d, 'sync payload');
    if (step === SYNC_STEP_1) {
      checkStateVector(payload);
      message = { type: 'sync-step-1', stateVector: payload };
    } else if (step === SYNC_STEP_2 || step === SYNC_UPDATE) {
      message = { type: step === SYNC_STEP_2 ? 'sync-step-2' : 'update', update: payload };
    } else {
      throw new ProtocolError(`unknown sync message type ${step}`);
    }
  } else if (type === MESSAGE_AWARENESS) {
    message = { type: 'awareness', ...parseAwarenessUpdate(readBytes(d, 'awareness update')) };
  } else if (type === MESSAGE_QUERY_AWARENESS) {
    message = { type: 'query-awareness' };
  } else {
    throw new ProtocolError(`unknown message type ${type}`);
  }
  if (decoding.hasContent(d)) throw new ProtocolError('trailing bytes after the message');
  return message;
}

/** Server SyncStep1: the server's state vector, asking the client for what the server lacks. */
export function encodeSyncStep1(doc: Y.Doc): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_SYNC);
  encoding.writeVarUint(e, SYNC_STEP_1);
  encoding.writeVarUint8Array(e, Y.encodeStateVector(doc));
  return encoding.toUint8Array(e);
}

/** Server SyncStep2: everything the client lacks given its state vector. */
export function encodeSyncStep2(doc: Y.Doc, stateVector: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_SYNC);
  encoding.writeVarUint(e, SYNC_STEP_2);
  encoding.writeVarUint8Array(e, Y.encodeStateAsUpdate(doc, stateVector));
  return encoding.toUint8Array(e);
}

/** An Update frame carrying `update`. */
export function encodeUpdate(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_SYNC);
  encoding.writeVarUint(e, SYNC_UPDATE);
  encoding.writeVarUint8Array(e, update);
  return encoding.toUint8Array(e);
}

/** An awareness update (without the frame header) holding `entries` (re-encoded after anti-spoofing filtering). */
export function encodeAwarenessEntries(entries: readonly AwarenessEntry[]): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, entries.length);
  for (const entry of entries) {
    encoding.writeVarUint(e, entry.clientId);
    encoding.writeVarUint(e, entry.clock);
    encoding.writeVarString(e, entry.state);
  }
  return encoding.toUint8Array(e);
}

/** Wraps an encoded awareness update into an awareness frame. */
export function encodeAwarenessFrame(update: Uint8Array): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_AWARENESS);
  encoding.writeVarUint8Array(e, update);
  return encoding.toUint8Array(e);
}
