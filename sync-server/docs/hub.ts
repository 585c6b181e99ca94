import * as Y from 'yjs';
import type { Db } from '../store/db';
import { CloseCode } from '../../shared/sync-contract';
import { GroupCommitter } from './committer';
import { Compactor } from './compactor';
import { DocStore } from './persistence';
import { UpdateListeners } from './update-listeners';
import { FanoutBridge, type BridgeHost } from './fanout-bridge';
import { LoadedDocs, type DocLease } from './loaded-docs';
import type { LiveDoc, ServerChange } from './live-doc';
import type { Fanout } from '../fanout/fanout';
import { consoleLogger, DEFAULT_HUB_OPTIONS } from './hub-types';
import type { DocPeer, HubLogger, HubOptions, UpdateListener, UpdateOrigin } from './hub-types';
import { HubBatches } from './hub-batches';

// What other modules import from the hub: they need not know which file defines it.
export { DEFAULT_HUB_OPTIONS, DocumentWriteError } from './hub-types';
export type { DocPeer, HubLogger, HubOptions, UpdateListener, UpdateOrigin } from './hub-types';
export type { DocLease } from './loaded-docs';

/**
 * DocHub: the live Yjs documents of this process. Opens documents on demand,
 * keeps them while connections or callers hold them, unloads idle ones, and
 * makes every update durable BEFORE anyone else sees it: client updates are
 * applied in one Yjs transaction per document and batch, committed as the one
 * update that transaction made (one database transaction per event-loop turn,
 * see GroupCommitter), and only then fanned out or shown to readers;
 * server-side changes are applied, committed, and only then broadcast or shown
 * to readers.
 */
export class DocHub {
  readonly store: DocStore;
  /** Where the hub reports failed writes and skipped updates (the server's pino logger). */
  readonly log: HubLogger;
  /** Called with the time (ms) from receiving a client update to broadcasting it (commit included). */
  onFanoutLag: ((ms: number) => void) | undefined;
  /** Called with the time (ms) from another process publishing a committed update to applying it here. */
  onRemoteFanoutLag: ((ms: number) => void) | undefined;
  private readonly docs: LoadedDocs;
  private readonly listeners = new UpdateListeners(() => this.log);
  private readonly compactor: Compactor;
  private readonly committer: GroupCommitter<LiveDoc>;
  /** Set when other server processes share the documents (FOLIO_REDIS_URL). */
  private bridge: FanoutBridge | undefined;

  constructor(db: Db, options: Partial<HubOptions> = {}, log: HubLogger = consoleLogger) {
    this.log = log;
    const settings = { ...DEFAULT_HUB_OPTIONS, ...options };
    this.store = new DocStore(db);
    this.docs = new LoadedDocs(this.store, settings.idleUnloadMs, {
      log: () => this.log,
      serverChange: (live, update, origin) => this.persistLocal(live, update, origin),
      loaded: (live) => this.compactor.maybeCompact(live),
    });
    this.compactor = new Compactor(
      this.store,
      settings,
      (name) => this.docs.get(name),
      () => this.log,
    );
    this.committer = new GroupCommitter<LiveDoc>(
      this.store,
      new HubBatches({
        log: () => this.log,
        listeners: this.listeners,
        bridge: () => this.bridge,
        fanoutLag: (ms) => this.onFanoutLag?.(ms),
        maybeCompact: (live) => this.compactor.maybeCompact(live),
        drop: (live, code, reason) => this.docs.drop(live, code, reason),
      }),
    );
  }

  /**
   * Shares this hub's documents with other server processes through `fanout`:
   * committed updates and presence are published, theirs applied here.
   * `onInvalidate` runs when another process changed rows (read caches).
   * Call before any document is opened.
   */
  useFanout(fanout: Fanout, onInvalidate: () => void): FanoutBridge {
    const host: BridgeHost = {
      loadedDoc: (name) => this.loadedDoc(name),
      loadedNames: () => this.loadedNames(),
      loadStored: (name) => this.store.load(name),
      log: () => this.log,
      // Read when it happens: the metrics attach their callback after the bridge exists.
      remoteFanoutLag: (ms) => this.onRemoteFanoutLag?.(ms),
    };
    this.bridge = new FanoutBridge(host, fanout, this.listeners, onInvalidate);
    this.docs.observe(this.bridge);
    return this.bridge;
  }

  /** Whether other processes may change these documents (then a revision first catches up from storage). */
  get shared(): boolean {
    return this.bridge !== undefined;
  }

  /** Subscribes to committed updates (e.g. to cut a revision after a quiet period); returns the unsubscribe function. */
  onUpdate(listener: UpdateListener): () => void {
    return this.listeners.add(listener);
  }

  /** Opens (or finds) a document and holds it until `release()`. */
  open(name: string): Promise<DocLease> {
    return this.docs.open(name);
  }

  /**
   * Runs `fn` on the committed state of a document, holding it meanwhile.
   * `fn` must only read: write through `change()`. An async `fn` sees the
   * committed state up to its first `await`.
   */
  async withDoc<T>(name: string, fn: (doc: Y.Doc) => T | Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const lease = await this.open(name);
      try {
        // Checked again right before `fn`: a batch may have been staged while the awaiting continuation was queued.
        while (lease.live.activity.hasLocalChanges() && !lease.live.broken)
          await new Promise<void>((resolve) => lease.live.whenLocalCommitted(resolve));
        // A failed write dropped this copy; read the reloaded one.
        if (lease.live.broken && attempt < 2) continue;
        return await fn(lease.doc);
      } finally {
        lease.release();
      }
    }
  }

  /**
   * Runs `fn` in one Yjs transaction on the live document, persists the
   * resulting update, and resolves after its commit with the update (null when
   * `fn` changed nothing). Connections and readers only see the change once it
   * is committed. On a failed commit the change is undone by reloading the
   * document and this rejects with DocumentWriteError. If `fn` throws, what
   * it changed before throwing is still committed (Yjs has no rollback).
   */
  async change(
    name: string,
    fn: (doc: Y.Doc) => void,
    origin: { userId?: string; reason?: string } = {},
  ): Promise<Uint8Array | null> {
    if (this.docs.closed) throw new Error('The document hub is closed');
    const lease = await this.open(name);
    try {
      const live = lease.live;
      const produced: ServerChange[] = [];
      let thrown: { error: unknown } | undefined;
      try {
        live.collectServerChanges(produced, () =>
          live.doc.transact(() => fn(live.doc), { kind: 'server', ...origin } satisfies UpdateOrigin),
        );
      } catch (error) {
        thrown = { error };
      }
      // Always wait for the commits (even when fn threw): an unobserved rejected commit would crash the process.
      const outcomes = await Promise.allSettled(produced.map((p) => p.done));
      if (thrown) throw thrown.error;
      const refused = outcomes.find((o) => o.status === 'rejected');
      if (refused) throw refused.reason;
      if (produced.length === 0) return null;
      return produced.length === 1 ? produced[0]!.update : Y.mergeUpdates(produced.map((p) => p.update));
    } finally {
      lease.release();
    }
  }

  /** Queues a client update for commit; applied and fanned out after it (used by connections). */
  submit(live: LiveDoc, peer: DocPeer, update: Uint8Array, origin: UpdateOrigin): void {
    this.committer.push({ live, data: update, origin, peer, applied: false, receivedAt: performance.now() });
  }

  /** Documents in memory now. */
  get openDocuments(): number {
    return this.docs.size;
  }

  /** The loaded copy of a document, if any and usable. */
  loadedDoc(name: string): LiveDoc | undefined {
    const live = this.docs.get(name);
    return live && !live.broken ? live : undefined;
  }

  /** Names of the documents in memory. */
  loadedNames(): string[] {
    return this.docs.names();
  }

  /**
   * Catches a loaded document up with storage (what other processes
   * committed that this copy has not seen yet). Only meaningful when the
   * documents are shared (`shared`); a no-op otherwise.
   */
  refresh(name: string): Promise<void> {
    return this.bridge?.refresh(name) ?? Promise.resolve();
  }

  /** Whether the document is in memory. */
  isLoaded(name: string): boolean {
    return this.docs.get(name) !== undefined;
  }

  /** Resolves once every queued update is committed and applied. */
  flush(): Promise<void> {
    return this.committer.drain();
  }

  /** Closes the document's connections (4404) and deletes everything stored for it (purge). */
  async remove(name: string): Promise<void> {
    const live = this.docs.get(name);
    if (live) this.docs.drop(live, CloseCode.notFound, 'document removed');
    await this.compactor.settled(name);
    await this.committer.drain();
    await this.store.remove(name);
  }

  /** Stops: commits what is queued, waits for compactions, closes remaining connections (1001) and frees every document. */
  async close(): Promise<void> {
    if (this.docs.closed) return;
    this.docs.close();
    await this.committer.drain();
    await this.compactor.stop();
    this.docs.dropAll(CloseCode.goingAway, 'server shutting down');
  }

  /** A server-side change (change(), or anything else that wrote to the live doc): commit it before anyone sees it. */
  private persistLocal(live: LiveDoc, update: Uint8Array, txOrigin: unknown): void {
    const origin: UpdateOrigin =
      (txOrigin as UpdateOrigin | null)?.kind === 'server' ? (txOrigin as UpdateOrigin) : { kind: 'server' };
    live.activity.localStarted();
    const done = new Promise<void>((resolve, reject) => {
      this.committer.push({ live, data: update, origin, peer: undefined, applied: true, settle: { resolve, reject } });
    });
    if (!live.claimServerChange({ update, done }))
      done.catch((err) => this.log.error({ err, doc: live.name }, 'sync: a server-side change was not stored'));
  }
}
