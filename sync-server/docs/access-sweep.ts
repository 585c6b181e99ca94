import { syncRoom, type Refusal } from '../../shared/sync-contract';
import type { SyncAccess } from './access';
import type { HubLogger } from './hub-types';

/**
 * Re-checks the access of every open socket after something changed, so a
 * removed member, a revoked token or a withdrawn grant stops receiving live
 * edits (only writes re-check on their own). The server calls `trigger()` on
 * every read-cache invalidation (a write of this process, or of another one
 * over Redis): the invalidation says only "rows changed", not which, so the
 * sweep re-checks everyone, and is built to be cheap and bounded:
 *
 * - debounced: a burst of writes (one REST request runs several statements)
 *   gives one sweep `intervalMs` after the first; sweeps never overlap, and the
 *   pause before the next one is at least as long as the last sweep took, so
 *   steady writes cannot keep the database busy with sweeps more than half the
 *   time;
 * - deduplicated: connections sharing a token and a document share one check;
 * - batched: at most `concurrency` tokens are checked at once, each token's
 *   documents one after the other, so its first check fills the read cache
 *   (token, membership, grants) for the rest. The read cache does not merge
 *   concurrent misses: 1,000 sockets checked all at once right after an
 *   invalidation would each send their own queries.
 */

/** What the sweep needs of a connection (SyncConnection). */
export interface SweptConnection {
  readonly access: SyncAccess;
  /** Acts on a fresh decision (closes the connection when access was lost). */
  accessChecked(refusal: Refusal | undefined): void;
}

/** Tunables of the sweep. */
export interface AccessSweepOptions {
  /** Delay from the first trigger to the sweep, and least pause between two sweeps (ms). */
  intervalMs: number;
  /** Tokens checked at once. */
  concurrency: number;
}

export const DEFAULT_ACCESS_SWEEP_OPTIONS: AccessSweepOptions = { intervalMs: 200, concurrency: 8 };

/** See the module comment. */
export class AccessSweep {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private requested = false;
  private closed = false;
  /** When the last sweep ended, and how long it took (ms). */
  private lastEnd = 0;
  private lastDurationMs = 0;
  private readonly options: AccessSweepOptions;

  constructor(
    private readonly connections: () => Iterable<SweptConnection>,
    private readonly log: HubLogger,
    options: Partial<AccessSweepOptions> = {},
  ) {
    this.options = { ...DEFAULT_ACCESS_SWEEP_OPTIONS, ...options };
  }

  /** Something may have changed who may see what: sweep soon (once for any number of triggers meanwhile). */
  trigger(): void {
    if (this.closed) return;
    this.requested = true;
    this.schedule();
  }

  /** Stops sweeping (server shutdown); a sweep in progress finishes. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.closed || !this.requested || this.timer || this.running) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.requested = false;
        const started = Date.now();
        this.running = this.sweep()
          .catch((err) => this.log.error({ err }, 'sync: access sweep failed'))
          .finally(() => {
            this.lastEnd = Date.now();
            this.lastDurationMs = this.lastEnd - started;
            this.running = undefined;
            // Triggers that arrived during the sweep (it may have read rows before their change) get one more.
            this.schedule();
          });
      },
      Math.max(this.options.intervalMs, this.lastEnd + this.lastDurationMs - Date.now()),
    );
    this.timer.unref();
  }

  private async sweep(): Promise<void> {
    // credential -> document -> connections: one check per (token, document), grouped by token.
    const byCredential = new Map<string, Map<string, SweptConnection[]>>();
    for (const connection of this.connections()) {
      const { credential, target } = connection.access;
      let byDocument = byCredential.get(credential);
      if (!byDocument) byCredential.set(credential, (byDocument = new Map()));
      const room = syncRoom(target);
      const group = byDocument.get(room);
      if (group) group.push(connection);
      else byDocument.set(room, [connection]);
    }
    const queue = [...byCredential.values()];
    let failures = 0;
    let firstError: unknown;
    const worker = async () => {
      for (let documents = queue.pop(); documents; documents = queue.pop()) {
        for (const group of documents.values()) {
          let refusal: Refusal | undefined;
          try {
            refusal = await group[0]!.access.recheck();
          } catch (err) {
            // The database is away: keep the connections (writes are re-checked anyway); the next sweep retries.
            failures++;
            firstError ??= err;
            continue;
          }
          for (const connection of group) connection.accessChecked(refusal);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, queue.length) }, worker));
    if (failures > 0)
      this.log.warn({ err: firstError, failures }, 'sync: could not re-check the access of some connections');
  }
}
