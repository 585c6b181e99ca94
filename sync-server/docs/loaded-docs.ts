import type * as Y from 'yjs';
import { COMMITTED, type HubLogger } from './hub-types';
import { LiveDoc, type ServerChangeHandler } from './live-doc';
import { applyStored, type DocStore } from './persistence';

/** A hold on an open document; it stays in memory until every lease is released. */
export interface DocLease {
  readonly doc: Y.Doc;
  readonly live: LiveDoc;
  release(): void;
}

/** Told when documents enter and leave memory (the fan-out bridge, when documents are shared). */
export interface LoadObserver {
  /** Before a document is read from storage; the read waits for it. */
  beforeLoad(name: string): Promise<void>;
  /** The document is in memory and usable. */
  afterLoad(live: LiveDoc): void;
  /** The document left memory, or its load failed. */
  unloaded(name: string): void;
}

/** What the hub does for a document that enters memory. */
export interface LoadHooks {
  log(): HubLogger;
  /** Receives every server-side change made on a loaded document (it must be committed). */
  serverChange: ServerChangeHandler;
  /** The document was just loaded (e.g. to compact a long log tail). */
  loaded(live: LiveDoc): void;
}

/**
 * The documents in memory and their lifecycle: one load per document however
 * many callers ask at once, leases that keep a document loaded, an unload
 * once nobody has held it for `idleUnloadMs`, and dropping a document for
 * good (its connections are closed; the next open reads it again).
 */
export class LoadedDocs {
  private readonly docs = new Map<string, LiveDoc>();
  private readonly loading = new Map<string, Promise<LiveDoc>>();
  private observer: LoadObserver | undefined;
  private stopped = false;

  constructor(
    private readonly store: DocStore,
    private readonly idleUnloadMs: number,
    private readonly hooks: LoadHooks,
  ) {}

  /** Reports loads and unloads to `observer` from now on (call before any document is opened). */
  observe(observer: LoadObserver): void {
    this.observer = observer;
  }

  /** True after `close()`: nothing loads any more. */
  get closed(): boolean {
    return this.stopped;
  }

  /** Documents in memory now. */
  get size(): number {
    return this.docs.size;
  }

  /** The copy of a document in memory, if any. */
  get(name: string): LiveDoc | undefined {
    return this.docs.get(name);
  }

  /** Names of the documents in memory. */
  names(): string[] {
    return [...this.docs.keys()];
  }

  /** Loads (or finds) a document and holds it until the lease is released. */
  async open(name: string): Promise<DocLease> {
    const live = await this.load(name);
    live.activity.hold();
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

  /** Takes a document out of memory for good (its connections get `code`); the next open reads it again. */
  drop(live: LiveDoc, code: number, reason: string): void {
    if (this.docs.get(live.name) === live) {
      this.docs.delete(live.name);
      this.observer?.unloaded(live.name);
    }
    if (live.broken) return;
    // Broken before the connections close: their releases must not schedule an unload.
    live.activity.markBroken();
    for (const peer of [...live.peers]) peer.close(code, reason);
    live.destroy();
  }

  /** Loads nothing more and schedules no more unloads; `dropAll` then frees what is left. */
  close(): void {
    this.stopped = true;
  }

  /** Drops every document in memory (see `drop`). */
  dropAll(code: number, reason: string): void {
    for (const live of [...this.docs.values()]) this.drop(live, code, reason);
  }

  private load(name: string): Promise<LiveDoc> {
    if (this.stopped) return Promise.reject(new Error('The document hub is closed'));
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
    await this.observer?.beforeLoad(name);
    let stored;
    try {
      stored = await this.store.load(name);
    } catch (err) {
      // Nothing was loaded: do not keep listening for it.
      this.observer?.unloaded(name);
      throw err;
    }
    const live = new LiveDoc(name, this.hooks.serverChange);
    const parts = stored.tail.map((r) => r.data);
    if (stored.state) parts.unshift(stored.state);
    const failed = applyStored(live.doc, parts, COMMITTED);
    if (failed > 0)
      this.hooks.log().warn({ doc: name, failed }, 'sync: skipped stored updates that could not be applied');
    if (this.stopped) {
      live.destroy();
      this.observer?.unloaded(name);
      throw new Error('The document hub is closed');
    }
    live.activity.resetTail(stored.tail.length, stored.tailBytes);
    this.docs.set(name, live);
    this.observer?.afterLoad(live);
    this.hooks.loaded(live);
    return live;
  }

  private release(live: LiveDoc): void {
    const idle = live.activity.releaseHold();
    if (idle && !live.broken && !this.stopped) this.scheduleUnload(live);
  }

  private scheduleUnload(live: LiveDoc): void {
    live.activity.unloadAfter(this.idleUnloadMs, () => this.unloadIfIdle(live));
  }

  private unloadIfIdle(live: LiveDoc): void {
    if (live.broken || live.activity.held || this.docs.get(live.name) !== live) return;
    // Never drop a document with writes on their way: they still have to be applied and fanned out.
    if (live.activity.hasWritesInFlight()) return this.scheduleUnload(live);
    this.docs.delete(live.name);
    this.observer?.unloaded(live.name);
    live.destroy();
  }
}
