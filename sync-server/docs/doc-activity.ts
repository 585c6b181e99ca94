/**
 * The bookkeeping of one loaded document: who holds it in memory, which
 * writes are on their way to storage, how long its log tail is, and whether it
 * was dropped. The hub, the committer and the compactor each see part of a
 * document's life; keeping the counters behind these methods means none of
 * them can leave another with a count it did not expect.
 */
export class DocActivity {
  /** Leases (connections, withDoc, change) currently holding the document in memory. */
  private holders = 0;
  /** Writes of this document in the committer's queue or in flight. */
  private queued = 0;
  /** Server-side changes and staged batches applied to the Y.Doc but not committed yet. */
  private localPending = 0;
  private afterLocal: (() => void)[] = [];
  /** Log rows not compacted yet, as far as this process knows. */
  private tailRows = 0;
  private tailSize = 0;
  private dropped = false;
  private idleTimer: NodeJS.Timeout | undefined;

  /** True once the document was dropped (unloaded, failed local write, removal): nothing may use it any more. */
  get broken(): boolean {
    return this.dropped;
  }

  /** True while at least one lease holds the document. */
  get held(): boolean {
    return this.holders > 0;
  }

  /** Log rows not compacted yet. */
  get tailCount(): number {
    return this.tailRows;
  }

  /** Bytes of the log rows not compacted yet. */
  get tailBytes(): number {
    return this.tailSize;
  }

  /** A lease takes hold of the document; a pending idle unload is called off. */
  hold(): void {
    this.holders++;
    this.cancelIdleTimer();
  }

  /** A lease lets go. Returns true when nobody holds the document any more. */
  releaseHold(): boolean {
    this.holders--;
    return this.holders === 0;
  }

  /** Runs `unload` after `ms` unless the document is held again first (replaces an earlier timer). */
  unloadAfter(ms: number, unload: () => void): void {
    this.cancelIdleTimer();
    this.idleTimer = setTimeout(unload, ms);
    // An idle document must not keep the process alive.
    this.idleTimer.unref();
  }

  /** A write of this document entered the committer's queue. */
  enqueued(): void {
    this.queued++;
  }

  /** A write of this document left the committer (committed or not). */
  dequeued(): void {
    this.queued--;
  }

  /** A server-side change (or a staged batch of client updates) was applied to the Y.Doc and waits for its commit. */
  localStarted(): void {
    this.localPending++;
  }

  /** One server-side change or staged batch was committed (or dropped); runs the waiters once none is left. */
  localSettled(): void {
    this.localPending--;
    if (this.localPending > 0) return;
    this.runWaiters();
  }

  /** Runs `fn` once no server-side change is waiting for its commit (so nobody reads uncommitted state). */
  whenLocalCommitted(fn: () => void): void {
    if (this.localPending === 0) fn();
    else this.afterLocal.push(fn);
  }

  /** True while changes applied to the Y.Doc (server-side, or a staged batch) wait for their commit. */
  hasLocalChanges(): boolean {
    return this.localPending > 0;
  }

  /** True while writes of this document still have to be committed, applied or fanned out. */
  hasWritesInFlight(): boolean {
    return this.queued > 0 || this.localPending > 0;
  }

  /** A committed update of `bytes` joined the log tail. */
  recordStored(bytes: number): void {
    this.tailRows++;
    this.tailSize += bytes;
  }

  /** A compaction merged `rows` log rows of `bytes` into the state; commits that landed meanwhile stay counted. */
  tailCompacted(rows: number, bytes: number): void {
    this.tailRows = Math.max(0, this.tailRows - rows);
    this.tailSize = Math.max(0, this.tailSize - bytes);
  }

  /** Takes the tail figures read from storage (after a load, or when another process compacted). */
  resetTail(count: number, bytes: number): void {
    this.tailRows = count;
    this.tailSize = bytes;
  }

  /** Marks the document dropped; from now on `broken` is true. */
  markBroken(): void {
    this.dropped = true;
  }

  /**
   * The document leaves memory: marks it broken, stops the idle timer, and
   * runs the callbacks still waiting for local commits now. Their owners
   * check `broken` (a reader reloads, a closed connection sends nothing)
   * instead of waiting forever.
   */
  end(): void {
    this.dropped = true;
    this.cancelIdleTimer();
    this.runWaiters();
  }

  private cancelIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
  }

  private runWaiters(): void {
    const waiting = this.afterLocal;
    this.afterLocal = [];
    for (const fn of waiting) fn();
  }
}
