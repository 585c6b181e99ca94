import * as Y from 'yjs';
import type { Db } from '../store/db';
import { CloseCode } from './close-codes';
import { GroupCommitter, type PendingWrite } from './committer';
import { COMMITTED, LiveDoc, type DocPeer, type UpdateOrigin } from './live-doc';
import { Compactor } from './compactor';
import { applyStored, DocStore, type CompactionResult } from './persistence';
import { UpdateListeners } from './update-listeners';
import { FanoutBridge } from './fanout-bridge';
import type { Fanout } from '../fanout/fanout';
import {
  consoleLogger,
  DEFAULT_HUB_OPTIONS,
  DocumentWriteError,
  type DocLease,
  type HubLogger,
  type HubOptions,
  type UpdateListener,
} from './hub-types';

export type { DocPeer, UpdateOrigin } from './live-doc';
export {
  DEFAULT_HUB_OPTIONS,
  DocumentWriteError,
  type DocLease,
  type HubLogger,
  type HubOptions,
  type UpdateListener,
} from './hub-types';

/**
 * DocHub: the live Yjs documents of this process. Opens documents on demand,
 * keeps them while connections or callers hold them, unloads idle ones, and
 * makes every update durable BEFORE anyone else sees it: client updates are
 * committed (one transaction per event-loop turn, see GroupCommitter), then
 * applied and fanned out; server-side changes are applied, committed, and only
 * then broadcast or shown to readers.
 */
export class DocHub {
  readonly store: DocStore;
  /** Replaced by the server with the app's pino logger. */
  log: HubLogger = consoleLogger;
  private readonly options: HubOptions;
  private readonly docs = new Map<string, LiveDoc>();
  private readonly loading = new Map<string, Promise<LiveDoc>>();
  private readonly listeners = new UpdateListeners(() => this.log);
  private readonly compactor: Compactor;
  private readonly committer: GroupCommitter;
  /** Set when other server processes share the documents (FOLIO_REDIS_URL). */
  private bridge: FanoutBridge | undefined;
  private closed = false;

  constructor(db: Db, options: Partial<HubOptions> = {}) {
    this.options = { ...DEFAULT_HUB_OPTIONS, ...options };
    this.store = new DocStore(db);
    this.compactor = new Compactor(
      this.store,
      this.options,
      (name) => this.docs.get(name),
      () => this.log,
    );
    this.committer = new GroupCommitter(this.store, {
      prepare: (batch) => this.prepare(batch),
      committed: (batch) => this.committed(batch),
      failed: (batch, err) => this.failed(batch, err),
      crashed: (err) => this.log.error({ err }, 'sync: error after a commit'),
    });
  }

  /**
   * Shares this hub's documents with other server processes through `fanout`:
   * committed updates and presence are published, theirs applied here.
   * `onInvalidate` runs when another process changed rows (read caches).
   * Call before any document is opened.
   */
  useFanout(fanout: Fanout, onInvalidate: () => void): FanoutBridge {
    this.bridge = new FanoutBridge(this, fanout, this.listeners, onInvalidate);
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
  async open(name: string): Promise<DocLease> {
    const live = await this.load(name);
    live.holders++;
    if (live.idleTimer) clearTimeout(live.idleTimer);
    let released = false;
    return {
      doc: live.doc,
      live,
      release: () => {
        if (released) return;
        released = true;
        this.release(live);
      },
    };
  }

  /**
   * Runs `fn` on the committed state of a document, holding it meanwhile.
   * `fn` must only read: write through `change()`.
   */
  async withDoc<T>(name: string, fn: (doc: Y.Doc) => T | Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const lease = await this.open(name);
      try {
        await new Promise<void>((resolve) => lease.live.whenLocalCommitted(resolve));
        // A failed server-side write dropped this copy; read the reloaded one.
        if (lease.live.broken && attempt < 2) continue;
        return await fn(lease.doc);
      } finally {
        lease.release();
      }
    }
  }

  /** The live Y.Doc (committed state), for synchronous reads. Valid until the document unloads; prefer withDoc. */
  getDoc(name: string): Promise<Y.Doc> {
    return this.withDoc(name, (doc) => doc);
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
    if (this.closed) throw new Error('The document hub is closed');
    const lease = await this.open(name);
    try {
      const live = lease.live;
      const produced: { update: Uint8Array; done: Promise<void> }[] = [];
      live.localCapture = produced;
      let thrown: { error: unknown } | undefined;
      try {
        live.doc.transact(() => fn(live.doc), { kind: 'server', ...origin } satisfies UpdateOrigin);
      } catch (error) {
        thrown = { error };
      } finally {
        live.localCapture = undefined;
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

  /** Called with the time (ms) from receiving a client update to broadcasting it (commit included). */
  onFanoutLag: ((ms: number) => void) | undefined;
  /** Called with the time (ms) from another process publishing a committed update to applying it here. */
  onRemoteFanoutLag: ((ms: number) => void) | undefined;

  /** Documents in memory now. */
  get openDocuments(): number {
    return this.docs.size;
  }

  /** The loaded copy of a document, if any. */
  loadedDoc(name: string): LiveDoc | undefined {
    const live = this.docs.get(name);
    return live && !live.broken ? live : undefined;
  }

  /** Names of the documents in memory. */
  loadedNames(): string[] {
    return [...this.docs.keys()];
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
    return this.docs.has(name);
  }

  /** Resolves once every queued update is committed and applied. */
  flush(): Promise<void> {
    return this.committer.drain();
  }

  /** Compacts a document's log now (or joins the compaction already running). */
  compact(name: string): Promise<CompactionResult | undefined> {
    return this.compactor.compact(name);
  }

  /** Closes the document's connections (4404) and deletes everything stored for it (purge). */
  async remove(name: string): Promise<void> {
    const live = this.docs.get(name);
    if (live) this.dropDoc(live, CloseCode.notFound, 'document removed');
    await this.compactor.settled(name);
    await this.committer.drain();
    await this.store.remove(name);
  }

  /** Stops: commits what is queued, waits for compactions, closes remaining connections (1001) and frees every document. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.committer.drain();
    await this.compactor.stop();
    for (const live of [...this.docs.values()]) this.dropDoc(live, CloseCode.goingAway, 'server shutting down');
  }

  private load(name: string): Promise<LiveDoc> {
    if (this.closed) return Promise.reject(new Error('The document hub is closed'));
    const open = this.docs.get(name);
    if (open) return Promise.resolve(open);
    let pending = this.loading.get(name);
    if (!pending) {
      pending = this.read(name).finally(() => this.loading.delete(name));
      this.loading.set(name, pending);
    }
    return pending;
  }

  private async read(name: string): Promise<LiveDoc> {
    await this.bridge?.beforeLoad(name);
    let stored;
    try {
      stored = await this.store.load(name);
    } catch (err) {
      // Nothing was loaded: do not keep listening for it.
      this.bridge?.unloaded(name);
      throw err;
    }
    const live = new LiveDoc(name);
    const parts = stored.tail.map((r) => r.data);
    if (stored.state) parts.unshift(stored.state);
    const failed = applyStored(live.doc, parts, COMMITTED);
    if (failed > 0) this.log.warn({ doc: name, failed }, 'sync: skipped stored updates that could not be applied');
    if (this.closed) {
      live.destroy();
      this.bridge?.unloaded(name);
      throw new Error('The document hub is closed');
    }
    live.tailCount = stored.tail.length;
    live.tailBytes = stored.tailBytes;
    live.doc.on('update', (update: Uint8Array, origin: unknown) => {
      if (origin === COMMITTED) live.captured?.push(update);
      else this.persistLocal(live, update, origin);
    });
    this.docs.set(name, live);
    this.bridge?.afterLoad(live);
    this.compactor.maybeCompact(live);
    return live;
  }

  /** A server-side change (change(), or anything else that wrote to the live doc): commit it before anyone sees it. */
  private persistLocal(live: LiveDoc, update: Uint8Array, txOrigin: unknown): void {
    const origin: UpdateOrigin =
      (txOrigin as UpdateOrigin | null)?.kind === 'server' ? (txOrigin as UpdateOrigin) : { kind: 'server' };
    live.localPending++;
    const done = new Promise<void>((resolve, reject) => {
      this.committer.push({ live, data: update, origin, peer: undefined, applied: true, settle: { resolve, reject } });
    });
    if (live.localCapture) live.localCapture.push({ update, done });
    else done.catch((err) => this.log.error({ err, doc: live.name }, 'sync: a server-side change was not stored'));
  }

  private release(live: LiveDoc): void {
    live.holders--;
    if (live.holders === 0 && !live.broken && !this.closed) this.scheduleUnload(live);
  }

  private scheduleUnload(live: LiveDoc): void {
    if (live.idleTimer) clearTimeout(live.idleTimer);
    live.idleTimer = setTimeout(() => this.unloadIfIdle(live), this.options.idleUnloadMs);
    live.idleTimer.unref();
  }

  private unloadIfIdle(live: LiveDoc): void {
    if (live.broken || live.holders > 0 || this.docs.get(live.name) !== live) return;
    // Never drop a document with writes on their way: they still have to be applied and fanned out.
    if (live.queued > 0 || live.localPending > 0) return this.scheduleUnload(live);
    this.docs.delete(live.name);
    this.bridge?.unloaded(live.name);
    live.destroy();
  }

  /** Takes a document out of memory for good (its connections get `code`); the next open reloads it from storage. */
  private dropDoc(live: LiveDoc, code: number, reason: string): void {
    if (this.docs.get(live.name) === live) {
      this.docs.delete(live.name);
      this.bridge?.unloaded(live.name);
    }
    if (live.broken) return;
    live.broken = true;
    for (const peer of [...live.peers]) peer.close(code, reason);
    live.destroy();
  }

  private async prepare(batch: PendingWrite[]): Promise<PendingWrite[]> {
    // Roles, locks and tokens change while sockets stay open: ask again for each batch (cheap: read-cached).
    const peers = [...new Set(batch.filter((w) => w.peer && !w.live.broken).map((w) => w.peer!))];
    const verdicts = new Map(await Promise.all(peers.map(async (p) => [p, await p.authorizeWrite()] as const)));
    return batch.filter((w) => {
      if (w.live.broken) {
        // Its document was dropped after a failed write: the connection was closed and will resync.
        w.settle?.reject(new DocumentWriteError(new Error('the document was reloaded')));
        return false;
      }
      return !w.peer || verdicts.get(w.peer) === true;
    });
  }

  /** After the commit: apply and fan out per document, settle waiters, notify listeners. */
  private committed(batch: PendingWrite[]): void {
    const byDoc = new Map<LiveDoc, PendingWrite[]>();
    for (const w of batch) {
      const list = byDoc.get(w.live);
      if (list) list.push(w);
      else byDoc.set(w.live, [w]);
    }
    for (const [live, writes] of byDoc) {
      const failed = live.applyBatch(writes);
      if (failed > 0) this.log.warn({ doc: live.name, failed }, 'sync: stored updates could not be fully applied');
      for (const w of writes) {
        if (w.applied) live.localSettled();
        w.settle?.resolve();
      }
      const now = performance.now();
      for (const w of writes) if (w.receivedAt !== undefined) this.onFanoutLag?.(now - w.receivedAt);
      for (const w of writes) this.emit(live.name, w.data, w.origin);
      this.bridge?.committed(
        live,
        writes.map((w) => w.data),
      );
      this.compactor.maybeCompact(live);
    }
  }

  private failed(batch: PendingWrite[], err: unknown): void {
    this.log.error({ err, updates: batch.length }, 'sync: could not store updates; they were not applied');
    const dropped = new Set<LiveDoc>();
    for (const w of batch) {
      // The sender keeps its update locally and sends it again after reconnecting.
      if (w.peer) w.peer.close(CloseCode.tryAgainLater, 'storage unavailable');
      // A server-side change is already in the live doc: drop that copy so nobody reads what is not stored.
      if (w.applied) dropped.add(w.live);
      w.settle?.reject(new DocumentWriteError(err));
    }
    for (const live of dropped) this.dropDoc(live, CloseCode.tryAgainLater, 'document reloaded');
  }

  private emit(name: string, update: Uint8Array, origin: UpdateOrigin): void {
    this.listeners.emit(name, update, origin);
  }
}
