import { ApiError, OfflineError, type ApiClient } from '../api/client';

/**
 * Comment writes (new comments, replies, resolve, reactions) go through REST
 * — the server owns the discussion document — so they cannot be edited into
 * a local Y.Doc like page content. Instead they wait here, persisted in
 * localStorage so a reload or a restart keeps them, and are sent in order
 * once the server is reachable.
 *
 * No duplicates: one flush at a time, across windows too (a Web Lock per
 * server); an item leaves the queue only after the server accepted it; and an
 * item whose earlier send got no answer (it may have arrived) is first
 * checked against the discussion document before being sent again.
 */

/** A queued write. `path` is `/spaces/<id>` or `/spaces/<id>/change-requests/<crId>`. */
export type OutboxOp =
  | { kind: 'comment'; path: string; page?: string; markdown: string }
  | { kind: 'reply'; path: string; commentId: string; markdown: string }
  | {
      kind: 'update';
      path: string;
      commentId: string;
      replyId?: string;
      patch: { resolved?: boolean; addedReactions?: string[]; removedReactions?: string[] };
    };

/** A queued write with its bookkeeping. */
export interface OutboxItem {
  id: string;
  createdAt: string;
  /** Set once a send was attempted without a definite answer. */
  attempted?: boolean;
  op: OutboxOp;
}

/** Where the queue is kept (localStorage in the app; a Map in unit tests). */
export type OutboxStore = Pick<Storage, 'getItem' | 'setItem'>;

/** Options of an Outbox. */
export interface OutboxOptions {
  store?: OutboxStore;
  /** Whether an attempted item already reached the server (looked up in the live discussion document). */
  delivered?: (item: OutboxItem) => boolean;
  /** Told about items the server refused for good (they are dropped). */
  onRejected?: (item: OutboxItem, error: ApiError) => void;
}

/** The persistent queue of comment writes for one server. */
export class Outbox {
  private readonly key: string;
  private readonly store: OutboxStore;
  private flushing: Promise<void> | undefined;
  private listeners = new Set<() => void>();
  /** Replaceable: the workspace sets it to look in the discussion document it has open. */
  delivered: (item: OutboxItem) => boolean;

  constructor(
    private readonly api: ApiClient,
    private readonly options: OutboxOptions = {},
  ) {
    this.key = `folio-outbox:${api.serverUrl}`;
    this.store = options.store ?? localStorage;
    this.delivered = options.delivered ?? (() => false);
  }

  /** Items waiting, oldest first. */
  items(): OutboxItem[] {
    try {
      const parsed: unknown = JSON.parse(this.store.getItem(this.key) ?? '[]');
      return Array.isArray(parsed) ? (parsed as OutboxItem[]) : [];
    } catch {
      return [];
    }
  }

  /** How many items wait. */
  get size(): number {
    return this.items().length;
  }

  /** Queues a write and tries to send at once. */
  enqueue(op: OutboxOp): OutboxItem {
    const item: OutboxItem = { id: crypto.randomUUID(), createdAt: new Date().toISOString(), op };
    this.save([...this.items(), item]);
    void this.flush();
    return item;
  }

  /** Calls `listener` whenever the queue changes; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Sends the queued items in order. Stops at the first one that cannot be
   * delivered now (server unreachable or failing) so later items never
   * overtake it; refused items (4xx) are dropped and reported.
   */
  flush(): Promise<void> {
    this.flushing ??= this.withLock(() => this.drain()).finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const [item] = this.items();
      if (!item) return;
      if (item.attempted && this.delivered(item)) {
        this.remove(item.id);
        continue;
      }
      this.update(item.id, { attempted: true });
      try {
        await send(this.api, item.op);
      } catch (err) {
        if (err instanceof OfflineError || (err instanceof ApiError && err.retryable)) return;
        if (err instanceof ApiError) this.options.onRejected?.(item, err);
        else throw err;
      }
      this.remove(item.id);
    }
  }

  private async withLock(fn: () => Promise<void>): Promise<void> {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    if (!locks) return fn();
    await locks.request(this.key, fn);
  }

  private update(id: string, patch: Partial<OutboxItem>): void {
    this.save(this.items().map((i) => (i.id === id ? { ...i, ...patch } : i)));
  }

  private remove(id: string): void {
    this.save(this.items().filter((i) => i.id !== id));
  }

  private save(items: OutboxItem[]): void {
    this.store.setItem(this.key, JSON.stringify(items));
    for (const listener of this.listeners) listener();
  }
}

/** The REST call of one queued write. */
function send(api: ApiClient, op: OutboxOp): Promise<unknown> {
  switch (op.kind) {
    case 'comment':
      return api.request(`${op.path}/comments`, {
        method: 'POST',
        body: { body: { markdown: op.markdown }, ...(op.page ? { page: op.page } : {}) },
      });
    case 'reply':
      return api.request(`${op.path}/comments/${op.commentId}/replies`, {
        method: 'POST',
        body: { body: { markdown: op.markdown } },
      });
    case 'update': {
      const target = op.replyId
        ? `${op.path}/comments/${op.commentId}/replies/${op.replyId}`
        : `${op.path}/comments/${op.commentId}`;
      const patch = op.replyId
        ? { addedReactions: op.patch.addedReactions, removedReactions: op.patch.removedReactions }
        : op.patch;
      return api.request(target, { method: 'PUT', body: patch });
    }
  }
}
