/**
 * What the sync server, the renderer and the tests must agree on about the
 * WebSocket sync endpoint: the URL grammar (built and parsed here, so the two
 * directions cannot drift apart), the hub's document names, and the socket
 * close codes. Isomorphic: no Node-only or DOM-only imports.
 */

// ---------------------------------------------------------------------------
// Close codes
// ---------------------------------------------------------------------------

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

/** One of the close codes of {@link CloseCode}. */
export type CloseCodeValue = (typeof CloseCode)[keyof typeof CloseCode];

/** A decision to refuse a connection's write: the close code and its reason text. */
export interface Refusal {
  code: CloseCodeValue;
  reason: string;
}

// ---------------------------------------------------------------------------
// Document names (the hub's keys; also the update log's and the locks' names)
// ---------------------------------------------------------------------------

/** The hub name of a space's content document: `space/<spaceId>/content`. */
export const spaceContentDoc = (spaceId: string) => `space/${spaceId}/content`;

/** The hub name of a space's discussion document: `space/<spaceId>/discussion`. */
export const spaceDiscussionDoc = (spaceId: string) => `space/${spaceId}/discussion`;

/** The hub name of a change request's content document (its fork of the space): `cr/<changeRequestId>/content`. */
export const crContentDoc = (changeRequestId: string) => `cr/${changeRequestId}/content`;

/** The hub name of a change request's discussion document: `cr/<changeRequestId>/discussion`. */
export const crDiscussionDoc = (changeRequestId: string) => `cr/${changeRequestId}/discussion`;

/** The space whose content document this is, or undefined for any other document. */
export function spaceOfContentDoc(name: string): string | undefined {
  const m = /^space\/([A-Za-z0-9_-]+)\/content$/.exec(name);
  return m?.[1];
}

/** The change request whose content document this is, or undefined for any other document. */
export function changeRequestOfContentDoc(name: string): string | undefined {
  const m = /^cr\/([A-Za-z0-9_-]+)\/content$/.exec(name);
  return m?.[1];
}

// ---------------------------------------------------------------------------
// Sync paths
// ---------------------------------------------------------------------------

/** Which of the two documents of a space (or of a change request). */
export type SyncDocKind = 'content' | 'discussion';

/** A document reachable over `/v1/sync`: a space's, or one of its change request's. */
export interface SyncAddress {
  spaceId: string;
  /** Set for a change request's documents (its id; numbers are not accepted on sync paths). */
  changeRequestId?: string;
  kind: SyncDocKind;
}

/**
 * The sync endpoint's base path. The stock y-websocket `WebsocketProvider`
 * takes `<ws origin>` + this as its server URL and appends `/<room>` (see
 * {@link syncRoom}).
 */
export const SYNC_BASE_PATH = '/v1/sync/spaces';

/**
 * The y-websocket room of a document: the part of its path after
 * `/v1/sync/spaces/`, i.e. `<spaceId>[/change-requests/<changeRequestId>][/discussion]`.
 */
export function syncRoom(address: SyncAddress): string {
  const base = address.changeRequestId
    ? `${address.spaceId}/change-requests/${address.changeRequestId}`
    : address.spaceId;
  return address.kind === 'discussion' ? `${base}/discussion` : base;
}

/** The path of a document's sync endpoint: `/v1/sync/spaces/<spaceId>[/change-requests/<crId>][/discussion]`. */
export function syncPath(address: SyncAddress): string {
  return `${SYNC_BASE_PATH}/${syncRoom(address)}`;
}

// Ids are [a-zA-Z0-9_-] (GitBook's pattern), 1 to 64 characters; anything else cannot name a space. The raw
// (undecoded) pathname is matched, so percent-encoded characters never pass: `%2F` cannot smuggle a separator.
const SPACE_PATH = /^\/v1\/sync\/spaces\/([A-Za-z0-9_-]{1,64})(\/discussion)?\/?$/;
const CR_PATH = /^\/v1\/sync\/spaces\/([A-Za-z0-9_-]{1,64})\/change-requests\/([A-Za-z0-9_-]{1,64})(\/discussion)?\/?$/;

/**
 * The document a request path names (one optional trailing slash allowed), or
 * undefined for any other path (the server answers 404). The inverse of
 * {@link syncPath}.
 */
export function parseSyncPath(pathname: string): SyncAddress | undefined {
  const cr = CR_PATH.exec(pathname);
  if (cr) {
    const [, spaceId, changeRequestId, discussion] = cr as unknown as [string, string, string, string | undefined];
    return { spaceId, changeRequestId, kind: discussion ? 'discussion' : 'content' };
  }
  const m = SPACE_PATH.exec(pathname);
  if (!m) return undefined;
  return { spaceId: m[1]!, kind: m[2] ? 'discussion' : 'content' };
}

/** The hub document name of a sync address (see {@link spaceContentDoc} and its siblings). */
export function docNameOf(address: SyncAddress): string {
  if (address.changeRequestId)
    return address.kind === 'discussion'
      ? crDiscussionDoc(address.changeRequestId)
      : crContentDoc(address.changeRequestId);
  return address.kind === 'discussion' ? spaceDiscussionDoc(address.spaceId) : spaceContentDoc(address.spaceId);
}
