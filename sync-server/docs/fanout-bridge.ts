import * as Y from 'yjs';
import type { Fanout, FanoutHandlers } from '../fanout/fanout';
import type { HubLogger } from './hub-types';
import type { LiveDoc } from './live-doc';
import type { LoadObserver } from './loaded-docs';
import type { StoredDoc } from './persistence';
import type { UpdateListeners } from './update-listeners';

/** How long a document load waits for Redis to confirm its subscription before going on without it. */
const SUBSCRIBE_WAIT_MS = 1_000;

/**
 * What the bridge needs of the hub: the loaded documents, the stored ones, a
 * logger and a metric. Narrow on purpose, so the bridge cannot reach into
 * the rest of the hub (and does not import it).
 */
export interface BridgeHost {
  /** The loaded copy of a document, if any and usable (not broken). */
  loadedDoc(name: string): LiveDoc | undefined;
  /** Names of the documents in memory. */
  loadedNames(): string[];
  /** Reads what is stored for a document: what every process committed. */
  loadStored(name: string): Promise<StoredDoc>;
  /** The hub's current logger (the server replaces it after start-up, so ask each time). */
  log(): HubLogger;
  /** Reports the time (ms) from another process publishing a committed update to applying it here. */
  remoteFanoutLag(ms: number): void;
}

/**
 * Connects the document hub to the other server processes. The hub tells it
 * what happens to documents (loading, loaded, committed, unloaded); it
 * publishes committed updates and presence, and applies the others' messages
 * to the documents this process holds. Updates are published only after their
 * commit, so applying them here needs no second commit: they are durable.
 */
export class FanoutBridge implements FanoutHandlers, LoadObserver {
  /** Updates that arrived while their document was being read from the database. */
  private readonly early = new Map<string, Uint8Array[]>();
  private resyncing: Promise<void> | undefined;
  private resyncAgain = false;

  constructor(
    private readonly host: BridgeHost,
    private readonly fanout: Fanout,
    private readonly listeners: UpdateListeners,
    private readonly onInvalidate: () => void,
  ) {}

  /** Before a document is read: subscribe first, so nothing published after the read is missed. */
  async beforeLoad(name: string): Promise<void> {
    this.early.set(name, []);
    let timer: NodeJS.Timeout | undefined;
    // With Redis away the load goes on; the resync after Redis returns catches this document up.
    await Promise.race([
      this.fanout.subscribe(name).catch(() => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, SUBSCRIBE_WAIT_MS))),
    ]);
    clearTimeout(timer);
  }

  /** The document is in memory: apply what arrived during the read, publish its presence from now on. */
  afterLoad(live: LiveDoc): void {
    const early = this.early.get(live.name);
    this.early.delete(live.name);
    if (early && early.length > 0) this.applyRemote(live, early);
    live.onLocalAwareness = (update) => this.fanout.publishAwareness(live.name, update);
  }

  /** The document left memory (or never made it): stop listening for it. */
  unloaded(name: string): void {
    this.early.delete(name);
    this.fanout.unsubscribe(name);
  }

  /**
   * A batch of this document was committed here: the other processes get
   * what was stored as one update (usually one row already: see
   * LiveDoc.stage; Y.mergeUpdates costs more than linear in its inputs).
   */
  committed(live: LiveDoc, rows: readonly Uint8Array[]): void {
    if (rows.length === 0) return;
    this.fanout.publishUpdate(live.name, rows.length === 1 ? rows[0]! : Y.mergeUpdates([...rows]));
  }

  /** Another process committed an update: apply it to our copy, or keep it for the load in progress. */
  update(doc: string, update: Uint8Array, sentAt: number): void {
    const live = this.host.loadedDoc(doc);
    if (!live) {
      this.early.get(doc)?.push(update);
      return;
    }
    this.applyRemote(live, [update]);
    // Across machines this includes their clock difference; on one machine it is exact.
    this.host.remoteFanoutLag(Date.now() - sentAt);
  }

  /** Presence published by another process. */
  awareness(doc: string, update: Uint8Array): void {
    this.host.loadedDoc(doc)?.applyRemoteAwareness(update);
  }

  /** Another process changed rows: drop our read caches. */
  invalidate(): void {
    this.onInvalidate();
  }

  /** Catches every loaded document up from the database, one at a time; requests during a run queue one more run. */
  resync(): void {
    this.onInvalidate();
    if (this.resyncing) {
      this.resyncAgain = true;
      return;
    }
    this.resyncing = (async () => {
      do {
        this.resyncAgain = false;
        for (const name of this.host.loadedNames()) {
          await this.refresh(name).catch((err) =>
            this.host.log().warn({ err, doc: name }, 'fanout: could not catch a document up'),
          );
        }
      } while (this.resyncAgain);
    })().finally(() => (this.resyncing = undefined));
  }

  /**
   * Catches a loaded document up with storage: applies whatever other
   * processes committed that this copy has not seen (messages missed while
   * Redis was away, or still in flight). Yjs skips what it already has.
   */
  async refresh(name: string): Promise<void> {
    const live = this.host.loadedDoc(name);
    if (!live) return;
    const stored = await this.host.loadStored(name);
    const parts = stored.tail.map((r) => r.data);
    if (stored.state) parts.unshift(stored.state);
    if (this.host.loadedDoc(name) === live) this.applyRemote(live, parts);
  }

  /**
   * Applies updates that are already durable (committed by another process)
   * to a loaded document, sends what they changed to its connections, and
   * tells listeners (origin `remote`).
   */
  private applyRemote(live: LiveDoc, updates: readonly Uint8Array[]): void {
    if (live.broken) return;
    const { changed, failed } = live.applyCommitted(updates);
    if (failed > 0)
      this.host.log().warn({ doc: live.name, failed }, 'sync: updates from another process could not be applied');
    if (!changed) return;
    live.sendUpdate(changed);
    this.listeners.emit(live.name, changed, { kind: 'remote' });
  }
}
