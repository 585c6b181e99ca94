/**
 * WebSocket close codes of the sync endpoint. The stock y-websocket client
 * (v3) stops reconnecting after a code in 4400–4499 ("reconnecting cannot fix
 * this") and retries with backoff after anything else, so every code below is
 * chosen for that behaviour.
 */
export const CloseCode = {
  /** Server shutting down; clients reconnect to the next process. */
  goingAway: 1001,
  /** The database refused a write (or the document had to be reloaded): the update was not applied; reconnect and resync later, the client keeps its local state. */
  tryAgainLater: 1013,
  /** Malformed frame (not the y-websocket grammar, undecodable update, text frame). Permanent: resending the same bytes fails again. */
  malformed: 4400,
  /** The API token no longer resolves (revoked while connected). */
  unauthorized: 4401,
  /** A write from a connection without the `edit` role (or to a server-only document such as a discussion). Not applied, not stored. */
  readOnly: 4403,
  /** The caller can no longer see the space (access removed, space purged). */
  notFound: 4404,
  /** A write to a soft-deleted space. */
  deleted: 4410,
  /** A write to a locked space (edit mode `locked`). */
  locked: 4423,
} as const;

export type CloseCodeValue = (typeof CloseCode)[keyof typeof CloseCode];

/** A decision to refuse a connection's write: the close code and its reason text. */
export interface Refusal {
  code: CloseCodeValue;
  reason: string;
}
