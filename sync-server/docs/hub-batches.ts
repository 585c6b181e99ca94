import { CloseCode } from '../../shared/sync-contract';
import type { FanoutBridge } from './fanout-bridge';
import { DocumentWriteError } from './hub-types';
import type { BatchHandlers, HubLogger, LogRow, PendingWrite, PreparedBatch } from './hub-types';
import type { LiveDoc } from './live-doc';
import type { UpdateListeners } from './update-listeners';

/** A write as the committer hands it back to the hub. */
type Write = PendingWrite<LiveDoc>;

/** What the batch handlers need of the hub: narrow, so they cannot reach into the rest of it. */
export interface BatchHost {
  /** The hub's current logger (the server replaces it after start-up, so ask each time). */
  log(): HubLogger;
  readonly listeners: UpdateListeners;
  /** The bridge to other processes, once there is one. */
  bridge(): FanoutBridge | undefined;
  /** Reports the time (ms) from receiving a client update to broadcasting it (commit included). */
  fanoutLag(ms: number): void;
  /** A batch landed in the document's log tail: compact it if the tail is long. */
  maybeCompact(live: LiveDoc): void;
  /** Takes a document out of memory for good (its connections get `code`). */
  drop(live: LiveDoc, code: number, reason: string): void;
}

/**
 * What the hub does around each batch of the group committer: re-checks who
 * may still write, stages the batch on its documents (LiveDoc.stage) and
 * hands over the rows to store; after the commit, fans it out and tells the
 * listeners; after a failed commit, closes the senders and drops the copies
 * that hold what was not stored.
 */
export class HubBatches implements BatchHandlers<LiveDoc> {
  constructor(private readonly host: BatchHost) {}

  async prepare(batch: Write[]): Promise<PreparedBatch<LiveDoc>> {
    // Roles, locks and tokens change while sockets stay open: ask again for each batch (cheap: read-cached).
    const peers = [...new Set(batch.filter((w) => w.peer && !w.live.broken).map((w) => w.peer!))];
    const verdicts = new Map(await Promise.all(peers.map(async (p) => [p, await p.authorizeWrite()] as const)));
    // From here on synchronous: no document can be dropped between this filter and the staging.
    const writes = batch.filter((w) => {
      if (w.live.broken) {
        // Its document was dropped after a failed write: the connection was closed and will resync.
        w.settle?.reject(new DocumentWriteError(new Error('the document was reloaded')));
        return false;
      }
      return !w.peer || verdicts.get(w.peer) === true;
    });
    const rows: LogRow[] = [];
    for (const [live, own] of byDocument(writes))
      for (const data of live.stage(own)) rows.push({ doc: live.name, data });
    return { writes, rows };
  }

  /**
   * After the commit: fan out per document, settle waiters, notify listeners.
   * A failure with one document (a bug: the batch IS stored) must not leave
   * the others staged, their readers waiting forever: each document is
   * published, then the first error is thrown (and logged by `crashed`).
   */
  committed(batch: Write[]): void {
    let error: { cause: unknown } | undefined;
    for (const [live, writes] of byDocument(batch)) {
      try {
        this.publish(live, writes);
      } catch (cause) {
        error ??= { cause };
      }
    }
    if (error) throw error.cause;
  }

  failed(batch: Write[], err: unknown): void {
    this.host.log().error({ err, updates: batch.length }, 'sync: could not store updates; they were not applied');
    const dropped = new Set<LiveDoc>();
    for (const [live, writes] of byDocument(batch)) {
      // Staged client updates and server-side changes are already in the live doc: drop that copy so nobody
      // reads what is not stored (its connections resync from what is).
      if (live.abandon() || writes.some((w) => w.applied)) dropped.add(live);
      for (const w of writes) {
        // The sender keeps its update locally and sends it again after reconnecting.
        if (w.peer) w.peer.close(CloseCode.tryAgainLater, 'storage unavailable');
        w.settle?.reject(new DocumentWriteError(err));
      }
    }
    for (const live of dropped) this.host.drop(live, CloseCode.tryAgainLater, 'document reloaded');
  }

  crashed(err: unknown): void {
    this.host.log().error({ err }, 'sync: error after a commit');
  }

  /** One document's share of a committed batch: sent to its connections, waiters settled, listeners told. */
  private publish(live: LiveDoc, writes: Write[]): void {
    const { rows, failed } = live.publish();
    if (failed > 0) this.host.log().warn({ doc: live.name, failed }, 'sync: client updates could not be fully applied');
    for (const w of writes) {
      if (w.applied) live.activity.localSettled();
      w.settle?.resolve();
    }
    const now = performance.now();
    for (const w of writes) if (w.receivedAt !== undefined) this.host.fanoutLag(now - w.receivedAt);
    for (const w of writes) this.host.listeners.emit(live.name, w.data, w.origin);
    this.host.bridge()?.committed(live, rows);
    this.host.maybeCompact(live);
  }
}

/** The writes of a batch by document, in the order the documents first appear. */
function byDocument(batch: readonly Write[]): Map<LiveDoc, Write[]> {
  const groups = new Map<LiveDoc, Write[]>();
  for (const w of batch) {
    const list = groups.get(w.live);
    if (list) list.push(w);
    else groups.set(w.live, [w]);
  }
  return groups;
}
