import * as Y from 'yjs';
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate, removeAwarenessStates } from 'y-protocols/awareness';
import { DocActivity } from './doc-activity';
import { COMMITTED, type DocPeer, type PendingWrite } from './hub-types';
import { hasPending, integrateUpdates, pendingChanged, pendingMark, type Integrated } from './integrate';
import {
  encodeAwarenessEntries,
  encodeAwarenessFrame,
  encodeUpdate,
  parseAwarenessUpdate,
  type AwarenessEntry,
} from './protocol';

/** A server-side change made inside one `hub.change()` call, with the promise of its commit. */
export interface ServerChange {
  update: Uint8Array;
  done: Promise<void>;
}

/** Receives the updates of a live document that are not committed yet (server-side changes). */
export type ServerChangeHandler = (live: LiveDoc, update: Uint8Array, origin: unknown) => void;

/** Origin of clients' updates applied by `stage()`: on their way to storage, so not server-side changes to persist. */
const STAGED = Symbol('folio.staged');

/**
 * A batch applied to the document and waiting for its commit (see `stage`): the rows being stored, what the
 * batch changed (sent once committed) except to `skip` (its lone sender), how many client updates Yjs refused,
 * and whether readers are held back (activity.localStarted).
 */
interface Staged {
  rows: Uint8Array[];
  parts: Uint8Array[];
  skip: DocPeer | undefined;
  failed: number;
  held: boolean;
}

/** Origin (and owner) of awareness states that came from another server process. */
const REMOTE = Symbol('folio.remote-awareness');

/**
 * How many awareness client ids one connection may introduce over its
 * lifetime. A stock client uses one (its document's client id); without a
 * bound one socket could fill the document's presence with 200,000 fake
 * users, each sent to every peer and newcomer (and kept in the awareness
 * bookkeeping until the document unloads).
 */
export const MAX_AWARENESS_CLIENTS_PER_CONNECTION = 8;

/**
 * One document open in memory: the Y.Doc (holding committed updates, plus
 * server-side changes and a staged batch waiting for their commit), its
 * awareness, the connections attached to it, and its bookkeeping (`activity`).
 */
export class LiveDoc {
  readonly doc = new Y.Doc();
  readonly awareness: Awareness;
  readonly peers = new Set<DocPeer>();
  /** Holds, writes in flight, log tail, broken: changed only through its methods. */
  readonly activity = new DocActivity();
  /** Set when other server processes share this document: receives this process's presence changes. */
  onLocalAwareness: ((update: Uint8Array) => void) | undefined;
  /** The batch applied and waiting for its commit, if any (batches commit one at a time). */
  private staged: Staged | undefined;
  /** Collects the server-side changes made inside one hub.change() call. */
  private collecting: ServerChange[] | undefined;
  /** Which connection (or another process) introduced each awareness client id (anti-spoofing). */
  private readonly awarenessOwners = new Map<number, DocPeer | typeof REMOTE>();
  /** The client ids each connection introduced (its lifetime budget, see MAX_AWARENESS_CLIENTS_PER_CONNECTION). */
  private readonly awarenessIntroduced = new Map<DocPeer, Set<number>>();

  /** `onServerChange` receives every update that is neither committed nor staged: server-side changes to persist. */
  constructor(
    readonly name: string,
    onServerChange: ServerChangeHandler,
  ) {
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      // Committed and staged updates are on their way to storage already (integrateUpdates captures them).
      if (origin !== COMMITTED && origin !== STAGED) onServerChange(this, update, origin);
    });
    this.awareness = new Awareness(this.doc);
    // The server itself has no presence.
    this.awareness.setLocalState(null);
    this.awareness.on(
      'update',
      ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
        const peer = origin as DocPeer | undefined;
        if (origin === REMOTE) for (const id of added) this.awarenessOwners.set(id, REMOTE);
        else if (peer && this.peers.has(peer))
          for (const id of [...added, ...updated]) this.awarenessOwners.set(id, peer);
        for (const id of removed) this.awarenessOwners.delete(id);
        const changed = [...added, ...updated, ...removed];
        const update = encodeAwarenessUpdate(this.awareness, changed);
        this.broadcast(encodeAwarenessFrame(update));
        // Every process times out stale states itself, and remote changes are the sender's to publish.
        if (origin !== REMOTE && origin !== 'timeout') this.onLocalAwareness?.(update);
      },
    );
  }

  /** True once the document was dropped: nothing may use it any more (see DocActivity). */
  get broken(): boolean {
    return this.activity.broken;
  }

  /** Runs `fn` once no server-side change is waiting for its commit (so nobody reads uncommitted state). */
  whenLocalCommitted(fn: () => void): void {
    this.activity.whenLocalCommitted(fn);
  }

  /**
   * Runs `fn` and collects into `into` the server-side changes it makes, so
   * that `hub.change()` can wait for their commits. Changes made outside such
   * a call are not collected (see `claimServerChange`).
   */
  collectServerChanges(into: ServerChange[], fn: () => void): void {
    this.collecting = into;
    try {
      fn();
    } finally {
      this.collecting = undefined;
    }
  }

  /** Hands a server-side change to the `collectServerChanges` call running now; false when none is. */
  claimServerChange(change: ServerChange): boolean {
    if (!this.collecting) return false;
    this.collecting.push(change);
    return true;
  }

  /**
   * Stages this document's share of a batch right before its commit: applies
   * the clients' updates in ONE Yjs transaction and returns the rows to store
   * — the server-side changes as they are, plus the one update that
   * transaction made (what the document integrated: one row per batch, not
   * per update, and never an update Yjs refused). When the batch leaves
   * structs waiting for missing ones, which that update would lose, the
   * clients' updates are stored as received instead. Nobody sees the staged
   * changes before `publish()`: readers (SyncStep2 answers, withDoc) wait, and
   * a failed commit drops this copy (`abandon`), as for server-side changes.
   */
  stage(writes: readonly PendingWrite[]): Uint8Array[] {
    const rows: Uint8Array[] = [];
    const parts: Uint8Array[] = [];
    const incoming: PendingWrite[] = [];
    for (const w of writes) {
      if (!w.applied) incoming.push(w);
      else {
        rows.push(w.data);
        parts.push(w.data);
      }
    }
    const staged: Staged = { rows, parts, skip: undefined, failed: 0, held: false };
    this.staged = staged;
    if (this.broken || incoming.length === 0) return rows;
    // Held back from readers from now on (abandon() tells the hub to drop this copy if the commit fails).
    staged.held = true;
    this.activity.localStarted();
    // Pending structs integrated by this batch would be news to its sender too.
    const hadPending = hasPending(this.doc);
    const mark = pendingMark(this.doc);
    const { changed, failed } = integrateUpdates(
      this.doc,
      incoming.map((w) => w.data),
      STAGED,
    );
    staged.failed = failed;
    if (pendingChanged(this.doc, mark)) for (const w of incoming) rows.push(w.data);
    else if (changed) rows.push(changed);
    if (!changed) return rows;
    // A lone sender already has everything the batch changed: do not echo it back.
    if (parts.length === 0 && !hadPending && incoming.every((w) => w.peer === incoming[0]!.peer))
      staged.skip = incoming[0]!.peer;
    parts.push(changed);
    return rows;
  }

  /** The staged batch's commit failed: forgets it; true when this copy holds what is not stored (drop it). */
  abandon(): boolean {
    const held = this.staged?.held ?? false;
    this.staged = undefined;
    return held;
  }

  /**
   * After the staged batch's commit: counts its rows into the log tail and sends ONE frame per connection
   * holding everything the batch changed. Returns the stored rows and how many updates Yjs refused.
   */
  publish(): { rows: readonly Uint8Array[]; failed: number } {
    const staged = this.staged;
    if (!staged) return { rows: [], failed: 0 };
    this.staged = undefined;
    for (const row of staged.rows) this.activity.recordStored(row.byteLength);
    if (this.broken) return { rows: staged.rows, failed: staged.failed };
    const { parts } = staged;
    try {
      if (parts.length > 0) this.sendUpdate(parts.length === 1 ? parts[0]! : Y.mergeUpdates(parts), staged.skip);
    } finally {
      // Readers that waited for the commit see the batch now (after the connections were sent it); never left waiting.
      if (staged.held) this.activity.localSettled();
    }
    return { rows: staged.rows, failed: staged.failed };
  }

  /**
   * Applies updates that are already committed (by another process), all in
   * ONE Yjs transaction. Returns what actually changed (undefined: nothing)
   * and how many updates Yjs could not integrate.
   */
  applyCommitted(updates: readonly Uint8Array[]): Integrated {
    return integrateUpdates(this.doc, updates, COMMITTED);
  }

  /** Sends a committed update, as one Update frame, to every attached connection except `except`. */
  sendUpdate(update: Uint8Array, except?: DocPeer): void {
    this.broadcast(encodeUpdate(update), except);
  }

  /** Sends a frame to every attached connection except `except`. */
  broadcast(frame: Uint8Array, except?: DocPeer): void {
    for (const peer of this.peers) if (peer !== except) peer.send(frame);
  }

  /**
   * Applies a connection's awareness entries and returns how many it refused
   * for being over the client-id budget. Entries for client ids another
   * connection introduced are dropped: without this, any reader could
   * overwrite or remove other people's presence (cursor spoofing, "kicking"
   * a user). So are entries that would change nothing (a stock client echoes
   * back the states the server sent it), and new client ids beyond
   * MAX_AWARENESS_CLIENTS_PER_CONNECTION (presence flooding).
   */
  applyAwareness(peer: DocPeer, entries: readonly AwarenessEntry[]): number {
    let introduced = this.awarenessIntroduced.get(peer);
    let refused = 0;
    const accepted = entries.filter((e) => {
      const owner = this.awarenessOwners.get(e.clientId);
      // A state another process introduced may be taken over: its client reconnected here (failover).
      if (owner !== undefined && owner !== peer && owner !== REMOTE) return false;
      if (!this.changesAwareness(e)) return false;
      if (introduced?.has(e.clientId)) return true;
      if ((introduced?.size ?? 0) >= MAX_AWARENESS_CLIENTS_PER_CONNECTION) {
        refused++;
        return false;
      }
      if (!introduced) this.awarenessIntroduced.set(peer, (introduced = new Set()));
      introduced.add(e.clientId);
      return true;
    });
    if (accepted.length > 0) applyAwarenessUpdate(this.awareness, encodeAwarenessEntries(accepted), peer);
    return refused;
  }

  /**
   * Whether y-protocols would apply `entry` (a newer clock; a removal of a
   * state that exists). A removal of a client nobody shows would change no
   * state but still add bookkeeping forever: it is skipped too.
   */
  private changesAwareness(entry: AwarenessEntry): boolean {
    const clock = this.awareness.meta.get(entry.clientId)?.clock ?? 0;
    if (entry.state === 'null') return this.awareness.states.has(entry.clientId) && clock <= entry.clock;
    return clock < entry.clock;
  }

  /**
   * Applies presence published by another process, except for client ids a
   * connection of this process owns. Oversized states are dropped here too
   * (parseAwarenessUpdate), whatever the publishing process let through.
   */
  applyRemoteAwareness(update: Uint8Array): void {
    let entries: AwarenessEntry[];
    try {
      entries = parseAwarenessUpdate(update).entries;
    } catch {
      return;
    }
    const foreign = entries.filter((e) => {
      const owner = this.awarenessOwners.get(e.clientId);
      return (owner === undefined || owner === REMOTE) && this.changesAwareness(e);
    });
    if (foreign.length > 0) applyAwarenessUpdate(this.awareness, encodeAwarenessEntries(foreign), REMOTE);
  }

  /** The awareness frame of every known state (answer to query-awareness, and greeting). */
  awarenessFrame(): Uint8Array | undefined {
    const ids = [...this.awareness.getStates().keys()];
    return ids.length === 0 ? undefined : encodeAwarenessFrame(encodeAwarenessUpdate(this.awareness, ids));
  }

  /** Detaches a connection and removes the presence it introduced. */
  detach(peer: DocPeer): void {
    this.peers.delete(peer);
    this.awarenessIntroduced.delete(peer);
    const ids = [...this.awarenessOwners].filter(([, owner]) => owner === peer).map(([id]) => id);
    if (ids.length > 0) removeAwarenessStates(this.awareness, ids, null);
  }

  /** Frees the document; callbacks still waiting for local commits run now (see DocActivity.end). */
  destroy(): void {
    this.activity.end();
    this.awareness.destroy();
    this.doc.destroy();
  }
}
