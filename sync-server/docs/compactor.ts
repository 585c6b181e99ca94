import type { HubLogger } from './hub-types';
import type { LiveDoc } from './live-doc';
import type { CompactionResult, DocStore } from './persistence';

/** When to compact: once the log tail has this many updates or bytes. */
export interface CompactionThresholds {
  compactAfterUpdates: number;
  compactAfterBytes: number;
}

/**
 * Runs compactions in the background, at most one per document at a time,
 * when a loaded document's log tail crosses a threshold. This is what keeps
 * a cold load short however long a document has been edited: the log stays
 * bounded, everything older lives in one compacted state.
 */
export class Compactor {
  private readonly running = new Map<string, Promise<CompactionResult | undefined>>();
  private stopped = false;

  constructor(
    private readonly store: DocStore,
    private readonly thresholds: CompactionThresholds,
    /** The loaded copy of a document, if any (to keep its tail figures right). */
    private readonly loaded: (name: string) => LiveDoc | undefined,
    private readonly log: () => HubLogger,
  ) {}

  /** Starts a compaction of `live` if its tail crossed a threshold and none is running. */
  maybeCompact(live: LiveDoc): void {
    if (this.stopped || this.running.has(live.name)) return;
    const { tailCount, tailBytes } = live.activity;
    if (tailCount < this.thresholds.compactAfterUpdates && tailBytes < this.thresholds.compactAfterBytes) return;
    void this.compact(live.name).catch(() => undefined);
  }

  /** Compacts now, or joins the compaction already running for `name`. */
  compact(name: string): Promise<CompactionResult | undefined> {
    const current = this.running.get(name);
    if (current) return current;
    const run = this.run(name);
    run.catch((err) => this.log().error({ err, doc: name }, 'sync: compaction failed; the log is kept'));
    const tracked = run.finally(() => this.running.delete(name));
    tracked.catch(() => undefined);
    this.running.set(name, tracked);
    return tracked;
  }

  /** Resolves once the compaction of `name` (if any) has finished, successfully or not. */
  async settled(name: string): Promise<void> {
    await this.running.get(name)?.catch(() => undefined);
  }

  /** Starts no more compactions and waits for the running ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.running.values()]);
  }

  private async run(name: string): Promise<CompactionResult | undefined> {
    const result = await this.store.compact(name);
    if (result?.dropped)
      this.log().warn(
        { doc: name, dropped: result.dropped },
        'sync: compaction dropped stored updates that could not be applied',
      );
    const live = this.loaded(name);
    if (live && result) {
      // Commits that landed while compacting stay counted: only the merged rows left the tail.
      live.activity.tailCompacted(result.merged, result.mergedBytes);
    } else if (live) {
      // Another process compacted (or there was nothing): take the real figures, or we would retry on every commit.
      const stats = await this.store.tailStats(name);
      live.activity.resetTail(stats.count, stats.bytes);
    }
    return result;
  }
}
