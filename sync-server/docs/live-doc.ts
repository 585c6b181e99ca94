import * as Y from 'yjs';
import { Awareness, applyAwarenessUpdate, encodeAwarenessUpdate, removeAwarenessStates } from 'y-protocols/awareness';
import { DocActivity } from './doc-activity';
import { COMMITTED, type DocPeer, type PendingWrite } from './hub-types';
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
 * One document open in memory: the Y.Doc (holding committed updates only,
 * plus server-side changes waiting for their commit), its awareness, the
 * connections attached to it, and its bookkeeping (`activity`).
 */
export class LiveDoc {
  readonly doc = new Y.Doc();
  readonly awareness: Awareness;
  readonly peers = new Set<DocPeer>();
  /** Holds, writes in flight, log tail, broken: changed only through its methods. */
  readonly activity = new DocActivity();
  /** Set when other server processes share this document: receives this process's presence changes. */
  onLocalAwareness: ((update: Uint8Array) => void) | undefined;
  /** Collects effective updates while a committed update is being applied. */
  private captured: Uint8Array[] | undefined;
  /** Collects the server-side changes made inside one hub.change() call. */
  private collecting: ServerChange[] | undefined;
  /** Which connection (or another process) introduced each awareness client id (anti-spoofing). */
  private readonly awarenessOwners = new Map<number, DocPeer | typeof REMOTE>();
  /** The client ids each connection introduced (its lifetime budget, see MAX_AWARENESS_CLIENTS_PER_CONNECTION). */
  private readonly awarenessIntroduced = new Map<DocPeer, Set<number>>();

  /** `onServerChange` receives every update that is not already committed: those are server-side changes to persist. */
  constructor(
    readonly name: string,
    onServerChange: ServerChangeHandler,
  ) {
    this.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === COMMITTED) this.captured?.push(update);
      else onServerChange(this, update, origin);
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
   * Applies one committed batch of this document and fans it out: the
   * clients' updates in one Yjs transaction, then ONE frame per connection
   * holding everything the batch changed (server-side changes are already in
   * the doc and only need sending). Returns how many updates Yjs could not
   * integrate.
   */
  applyBatch(writes: readonly PendingWrite[]): number {
    const parts: Uint8Array[] = [];
    const incoming: PendingWrite[] = [];
    for (const w of writes) {
      this.activity.recordStored(w.data.byteLength);
      if (w.applied) parts.push(w.data);
      else incoming.push(w);
    }
    if (this.broken) return 0;
    const localCount = parts.length;
    let failed = 0;
    let skip: DocPeer | undefined;
    if (incoming.length > 0) {
      // Pending structs integrated by this batch would be news to its sender too.
      const hadPending = this.hasPending();
      const result = this.applyCommitted(incoming.map((w) => w.data));
      failed = result.failed;
      if (result.changed) parts.push(result.changed);
      // A lone sender already has everything the batch changed: do not echo it back.
      if (localCount === 0 && !hadPending && new Set(incoming.map((w) => w.peer)).size === 1) skip = incoming[0]!.peer;
    }
    if (parts.length > 0) this.broadcast(encodeUpdate(parts.length === 1 ? parts[0]! : Y.mergeUpdates(parts)), skip);
    return failed;
  }

  /**
   * Applies updates that are already committed, all in ONE Yjs transaction
   * (one 'update' event, already merged, instead of a transaction and a
   * merge per update). Returns what actually changed (undefined: nothing) and
   * how many updates Yjs could not integrate; what it did integrate is kept,
   * so the others see the same document as the server.
   */
  applyCommitted(updates: readonly Uint8Array[]): { changed: Uint8Array | undefined; failed: number } {
    this.captured = [];
    let failed = 0;
    this.doc.transact(() => {
      for (const update of updates) {
        try {
          Y.applyUpdate(this.doc, update, COMMITTED);
        } catch {
          failed++;
        }
      }
    }, COMMITTED);
    const captured = this.captured;
    this.captured = undefined;
    const changed = captured.length === 0 ? undefined : captured.length === 1 ? captured[0] : Y.mergeUpdates(captured);
    return { changed, failed };
  }

  /** True while Yjs holds structs or deletions whose dependencies are missing. */
  private hasPending(): boolean {
    return this.doc.store.pendingStructs !== null || this.doc.store.pendingDs !== null;
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
