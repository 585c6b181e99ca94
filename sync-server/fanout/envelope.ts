import { randomBytes } from 'node:crypto';

/**
 * The wire format of fan-out messages on Redis: one kind byte, the sender's
 * process id (so a process ignores its own messages), then the payload (a Yjs
 * update or an awareness update, as bytes).
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

/** A random id for this process's fan-out connection. */
export function newProcessId(): Buffer {
  return randomBytes(ID_BYTES);
}

export function encodeMessage(kind: MessageKind, sender: Buffer, payload: Uint8Array = new Uint8Array(0)): Buffer {
  const out = Buffer.allocUnsafe(1 + ID_BYTES + payload.byteLength);
  out[0] = kind;
  sender.copy(out, 1);
  out.set(payload, 1 + ID_BYTES);
  return out;
}

/** Decodes a message; undefined for anything malformed (never trust the wire, even our own Redis). */
export function decodeMessage(message: Buffer): { kind: MessageKind; sender: Buffer; payload: Uint8Array } | undefined {
  if (message.byteLength < 1 + ID_BYTES) return undefined;
  const kind = message[0] as MessageKind;
  if (!Object.values(MessageKind).includes(kind)) return undefined;
  return { kind, sender: message.subarray(1, 1 + ID_BYTES), payload: message.subarray(1 + ID_BYTES) };
}
