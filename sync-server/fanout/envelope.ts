import { randomBytes } from 'node:crypto';

/**
 * The wire format of fan-out messages on Redis: one kind byte, the sender's
 * process id (so a process ignores its own messages), when it was sent
 * (milliseconds since the epoch as a float64, for the cross-process lag
 * metric), then the payload (a Yjs update or an awareness update, as bytes).
 */

export const MessageKind = {
  /** A committed document update (already durable in PostgreSQL). */
  update: 1,
  /** An awareness (presence) update of a document. */
  awareness: 2,
  /** Some rows changed: drop read caches. */
  invalidate: 3,
  /** The sender may have failed to publish: everyone catch up from the database. */
  resync: 4,
} as const;
export type MessageKind = (typeof MessageKind)[keyof typeof MessageKind];

const ID_BYTES = 8;
const SENT_AT_BYTES = 8;
const HEADER_BYTES = 1 + ID_BYTES + SENT_AT_BYTES;

/** A random id for this process's fan-out connection. */
export function newProcessId(): Buffer {
  return randomBytes(ID_BYTES);
}

export interface FanoutMessage {
  kind: MessageKind;
  sender: Buffer;
  /** Date.now() on the sender when it published. */
  sentAt: number;
  payload: Uint8Array;
}

export function encodeMessage(
  kind: MessageKind,
  sender: Buffer,
  payload: Uint8Array = new Uint8Array(0),
  sentAt = Date.now(),
): Buffer {
  const out = Buffer.allocUnsafe(HEADER_BYTES + payload.byteLength);
  out[0] = kind;
  sender.copy(out, 1);
  out.writeDoubleBE(sentAt, 1 + ID_BYTES);
  out.set(payload, HEADER_BYTES);
  return out;
}

/** Decodes a message; undefined for anything malformed (never trust the wire, even our own Redis). */
export function decodeMessage(message: Buffer): FanoutMessage | undefined {
  if (message.byteLength < HEADER_BYTES) return undefined;
  const kind = message[0] as MessageKind;
  if (!Object.values(MessageKind).includes(kind)) return undefined;
  const sentAt = message.readDoubleBE(1 + ID_BYTES);
  if (!Number.isFinite(sentAt)) return undefined;
  return { kind, sender: message.subarray(1, 1 + ID_BYTES), sentAt, payload: message.subarray(HEADER_BYTES) };
}
