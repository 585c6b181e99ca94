import { MessageChannel } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
// The named export: the compiled server is a CommonJS bundle, where Node's require() of this ES module gives its
// namespace, and esbuild's default-import interop then hands over the namespace, not the class (issue 27).
import { Tinypool } from 'tinypool';
import type { DiffResult, DiffTask, MarkdownTask, PoolTask, TaskKind, TaskResult } from './tasks';
import type { WorkerRequest } from './worker';

/** Settings of the parse pool. */
export interface ParsePoolOptions {
  /** Longest a task may run once a worker has begun it (ms); then the worker is terminated. */
  timeoutMs: number;
  /** Worker threads at most (default: one less than the CPUs, between 1 and 2). */
  maxThreads?: number;
  /** An idle worker exits after this long (ms), so an idle server holds no threads. */
  idleTimeoutMs?: number;
  /** Heap limit of each worker (MB): a parse that needs more fails instead of growing the process. */
  maxHeapMb?: number;
  /** Longest a task may wait for a worker, on top of its budget, before its caller stops waiting (ms). */
  queueWaitCapMs?: number;
}

/** How a task ended: its result, or why there is none. */
export type PoolOutcome<K extends TaskKind> =
  ({ ok: true } & TaskResult<K>) | { ok: false; reason: 'timeout' | 'error'; error?: unknown };

/** How long an aborted task may take to settle before its caller stops waiting for it (ms). */
const ABORT_GRACE_MS = 2000;
const ABANDONED = Symbol('abandoned');

/** Set by scripts/build-server.mjs in the compiled server: the worker's own bundle, relative to this file. */
declare const FOLIO_COMPILED_WORKER: string | undefined;
/** From the sources, an entry that loads worker.ts through tsx; compiled, the plain-JS worker bundle. */
const WORKER_FILE = fileURLToPath(
  new URL(typeof FOLIO_COMPILED_WORKER === 'string' ? FOLIO_COMPILED_WORKER : './worker-entry.mjs', import.meta.url),
);

/**
 * Worker threads that parse markdown off the event loop (tinypool). Each task
 * has a time budget counted from the moment a worker begins it (the worker
 * says so on a port of its own; queueing and thread start-up do not count):
 * past it, the task is aborted, which terminates that worker (a synchronous
 * parse cannot be interrupted any other way), and the next task gets a fresh
 * one. Threads start on the first task and exit when idle, so a server that
 * parses nothing holds none.
 */
export class ParsePool {
  private pool: Tinypool | undefined;
  private running = 0;
  private closed = false;
  private readonly options: Required<ParsePoolOptions>;

  constructor(options: ParsePoolOptions) {
    this.options = {
      maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
      idleTimeoutMs: 30_000,
      maxHeapMb: 512,
      queueWaitCapMs: 30_000,
      ...options,
    };
  }

  /** Tasks a worker is running right now. */
  get busy(): number {
    return this.running;
  }

  /** Worker threads alive right now. */
  get threads(): number {
    return this.pool?.threads.length ?? 0;
  }

  private tinypool(): Tinypool {
    if (this.pool) return this.pool;
    const pool = new Tinypool({
      filename: WORKER_FILE,
      minThreads: 0,
      maxThreads: this.options.maxThreads,
      idleTimeout: this.options.idleTimeoutMs,
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
      // The parent's flags (a debugger port, --import tsx, ...) are not the worker's business.
      execArgv: [],
    });
    // A worker that dies without a task of its own (failing to start, say) is reported here; unheard, the
    // event would crash the server, and tasks queued behind it would wait forever. Drop this pool: its
    // queued tasks end as errors (their texts degrade) and the next task starts a new one.
    pool.on('error', () => {
      if (this.pool === pool) this.pool = undefined;
      void pool.destroy().catch(() => undefined);
    });
    this.pool = pool;
    return pool;
  }

  /** Runs `task` in a worker within the time budget. Never rejects. */
  run<K extends TaskKind>(task: MarkdownTask & { kind: K }): Promise<PoolOutcome<K>> {
    return this.exec<TaskResult<K>>(task);
  }

  /** Runs a word diff (tasks.ts DiffTask) in a worker within the time budget. Never rejects. */
  runDiff(
    task: DiffTask,
  ): Promise<({ ok: true } & DiffResult) | { ok: false; reason: 'timeout' | 'error'; error?: unknown }> {
    return this.exec<DiffResult>(task);
  }

  private async exec<R extends object>(
    task: PoolTask,
  ): Promise<({ ok: true } & R) | { ok: false; reason: 'timeout' | 'error'; error?: unknown }> {
    if (this.closed) return { ok: false, reason: 'error', error: new Error('the parse pool is closed') };
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    let started = false;
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    port1.once('message', () => {
      started = true;
      this.running++;
      timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, this.options.timeoutMs);
    });
    // Past the budget the task is aborted, which terminates its worker; tinypool then rejects the run. A run
    // that settled neither way within a grace period after its abort (seen with 1 ms budgets, where the abort
    // meets the task's own end) counts as timed out all the same: a caller must never wait forever.
    // And a task that never even starts (tinypool can lose one queued behind an aborted task when the abort
    // reaches a worker already given the next task) is given up after a generous wait in the queue.
    let backstop: NodeJS.Timeout | undefined;
    const abandoned = new Promise<typeof ABANDONED>((resolve) => {
      const giveUp = (ms: number) => {
        clearTimeout(backstop);
        backstop = setTimeout(() => resolve(ABANDONED), ms);
      };
      giveUp(this.options.timeoutMs + this.options.queueWaitCapMs);
      abort.signal.addEventListener('abort', () => giveUp(ABORT_GRACE_MS));
    });
    try {
      const request: WorkerRequest = { task, started: port2 };
      const result = await Promise.race([
        this.tinypool().run(request, { transferList: [port2], signal: abort.signal }) as Promise<R>,
        abandoned,
      ]);
      if (result === ABANDONED) return { ok: false, reason: 'timeout' };
      return { ok: true, ...result };
    } catch (error) {
      return timedOut ? { ok: false, reason: 'timeout' } : { ok: false, reason: 'error', error };
    } finally {
      clearTimeout(timer);
      clearTimeout(backstop);
      port1.close();
      if (started) this.running--;
    }
  }

  /** Terminates the workers; tasks still queued or running end as errors. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
  }
}
