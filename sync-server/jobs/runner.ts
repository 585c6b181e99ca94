import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock';
import { DatabaseUnavailableError, type Db, type Queryable } from '../store/db';
import {
  claimJob,
  finishJob,
  getJob,
  insertJob,
  recoverAbandoned,
  renewLease,
  requestCancel,
  saveProgress,
  type JobRow,
  type NewJob,
} from '../store/jobs';

/**
 * The one job runner of the server: every background run (OpenAPI spec processing, imports, Git
 * sync, translations, integration events) is a row of the `jobs` table (store/jobs.ts), on PGlite
 * and PostgreSQL alike — no library queue works on both (pg-boss and graphile-worker need a
 * PostgreSQL server; PGlite runs in this process), so it is built on the SQL layer:
 *
 * - claimed once across processes (`FOR UPDATE SKIP LOCKED`, and a unique index for one running
 *   job per subject), under a lease each runner renews while the job runs;
 * - a kill -9 lets the lease run out; any runner then queues the job again, or fails it once out
 *   of attempts — never "running" forever (on PGlite, at start, since one process owns the data);
 * - progress is saved as the job goes; failures a retry can help are retried with exponential
 *   backoff and jitter; cancelling a queued job is immediate, a running one is aborted through its
 *   AbortSignal at the next lease renewal;
 * - stopping the server aborts running jobs and queues them again without spending an attempt.
 */

/** A failure a job reports: its code (e.g. FETCH_TIMEOUT), message, and whether retrying may help. */
export class JobError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'JobError';
  }
}

/** What a job's handler gets. */
export interface JobContext<P> {
  job: JobRow & { payload: P };
  /** Aborted when the job is cancelled, times out, loses its lease, or the server stops. */
  signal: AbortSignal;
  /** Saves progress (shown to callers; a resumed job reads it back from `job.progress`). */
  progress(progress: unknown): Promise<void>;
  log: FastifyBaseLogger;
}

/** A kind of job and how to run it. */
export interface JobKind<P = unknown, R = unknown> {
  kind: string;
  run(ctx: JobContext<P>): Promise<R>;
  /** Attempts before a retryable failure becomes final (default 3). */
  maxAttempts?: number;
  /** Longest one attempt may run (default 10 minutes); then it fails with TIMEOUT (retryable). */
  timeoutMs?: number;
}

export interface JobRunnerOptions {
  /** Jobs run at once by this process. */
  concurrency?: number;
  /** How often queued work is looked for (new jobs of this process start at once). */
  pollMs?: number;
  /**
   * How long a claim lasts without renewal; renewed every third of it. It is also how long the jobs of
   * a killed process wait before another process takes them over (FOLIO_JOB_LEASE_MS).
   */
  leaseMs?: number;
  /** First retry delay; doubled per attempt, with ±25 % jitter, up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

const DEFAULTS: Required<JobRunnerOptions> = {
  concurrency: 2,
  pollMs: 1000,
  leaseMs: 30_000,
  backoffMs: 2000,
  maxBackoffMs: 5 * 60_000,
};

/** How an attempt that did not succeed ends (see finishJob). */
type Failure = Exclude<Parameters<typeof finishJob>[3], { state: 'succeeded' }>;

/** Why a running job was aborted, as its handler's signal reason. */
type AbortCause = 'cancelled' | 'timeout' | 'lease-lost' | 'shutdown';

export class JobRunner {
  /** This process's name on the leases it holds. */
  readonly owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly kinds = new Map<string, JobKind>();
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private readonly options: Required<JobRunnerOptions>;
  private timer: ReturnType<typeof setInterval> | undefined;
  private ticking: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  constructor(
    private readonly deps: { db: Db; clock: Clock; log: FastifyBaseLogger },
    options: JobRunnerOptions = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Makes a kind of job runnable by this process. */
  register<P, R>(kind: JobKind<P, R>): void {
    this.kinds.set(kind.kind, kind as JobKind);
  }

  /** Queues a job (in the caller's transaction when `db` is one) and wakes the runner. */
  async enqueue(job: NewJob, db: Queryable = this.deps.db): Promise<JobRow> {
    const kind = this.kinds.get(job.kind);
    const row = await insertJob(db, { maxAttempts: kind?.maxAttempts, ...job }, this.deps.clock.now());
    // Inside a transaction the row is not visible yet: the next poll finds it.
    if (db === this.deps.db) this.wake();
    return row;
  }

  get(id: string): Promise<JobRow | undefined> {
    return getJob(this.deps.db, id);
  }

  /** Cancels a job (see store/jobs.ts requestCancel); a running one of this process stops at once. */
  async cancel(id: string): Promise<JobRow | undefined> {
    const row = await requestCancel(this.deps.db, id, this.deps.clock.now());
    this.running.get(id)?.controller.abort('cancelled' satisfies AbortCause);
    return row;
  }

  /** Starts polling (after recovering jobs abandoned by a process that died). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.recover(this.deps.db.kind === 'pglite');
    this.timer = setInterval(() => this.wake(), this.options.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Stops claiming, aborts running jobs (queued again without spending an attempt) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const { controller } of this.running.values()) controller.abort('shutdown' satisfies AbortCause);
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
    await this.ticking;
  }

  /** Looks for work now (and once more after the current look, if one is under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick()
      .catch((err: unknown) => this.deps.log.warn({ err }, 'job runner: looking for work failed'))
      .finally(() => {
        this.ticking = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Runs every ready job to its end (tests: no timers involved). */
  async drain(): Promise<void> {
    const wasStopped = this.stopped;
    this.stopped = false;
    try {
      for (;;) {
        // A job that just ended wakes a look for work of its own: let it finish first.
        await this.ticking;
        await this.recover(false);
        const claimed = await this.claimAll();
        if (claimed === 0 && this.running.size === 0 && !this.ticking) return;
        if (this.running.size > 0) await Promise.race([...this.running.values()].map((r) => r.done));
      }
    } finally {
      this.stopped = wasStopped;
    }
  }

  private async tick(): Promise<void> {
    await this.recover(false);
    await this.claimAll();
  }

  private async recover(everyRunning: boolean): Promise<void> {
    const recovered = await recoverAbandoned(this.deps.db, this.deps.clock.now(), everyRunning);
    for (const job of recovered)
      this.deps.log.warn(
        { job: job.id, kind: job.kind, state: job.state, attempts: job.attempts },
        'job runner: a job was abandoned by a stopped process',
      );
  }

  /** Claims jobs while there is room; answers how many it started. */
  private async claimAll(): Promise<number> {
    let started = 0;
    while (!this.stopped && this.running.size < this.options.concurrency && this.kinds.size > 0) {
      const now = this.deps.clock.now();
      const job = await claimJob(
        this.deps.db,
        [...this.kinds.keys()],
        this.owner,
        now,
        new Date(now.getTime() + this.options.leaseMs),
      );
      if (!job) break;
      started++;
      this.launch(job);
    }
    return started;
  }

  private launch(job: JobRow): void {
    const kind = this.kinds.get(job.kind)!;
    const controller = new AbortController();
    const done = this.execute(kind, job, controller).finally(() => {
      this.running.delete(job.id);
      this.wake();
    });
    this.running.set(job.id, { controller, done });
  }

  private async execute(kind: JobKind, job: JobRow, controller: AbortController): Promise<void> {
    const { db, clock } = this.deps;
    const log = this.deps.log.child({ job: job.id, kind: job.kind, attempt: job.attempts });
    const renewEvery = Math.max(50, Math.floor(this.options.leaseMs / 3));
    const heartbeat = setInterval(() => {
      const now = clock.now();
      renewLease(db, job.id, this.owner, now, new Date(now.getTime() + this.options.leaseMs)).then(
        (lease) => {
          if (!lease) controller.abort('lease-lost' satisfies AbortCause);
          else if (lease.cancelRequested) controller.abort('cancelled' satisfies AbortCause);
        },
        (err: unknown) => log.warn({ err }, 'job runner: renewing a lease failed'),
      );
    }, renewEvery);
    heartbeat.unref();
    const timeout = setTimeout(() => controller.abort('timeout' satisfies AbortCause), kind.timeoutMs ?? 10 * 60_000);
    timeout.unref();
    let outcome: Parameters<typeof finishJob>[3];
    try {
      if (job.cancel_requested) controller.abort('cancelled' satisfies AbortCause);
      controller.signal.throwIfAborted();
      const result = await kind.run({
        job,
        signal: controller.signal,
        progress: (progress) => saveProgress(db, job.id, this.owner, progress, clock.now()),
        log,
      });
      // A handler that ignored its signal and finished anyway: the abort still decides.
      if (controller.signal.aborted) throw controller.signal.reason;
      outcome = { state: 'succeeded', result };
    } catch (err) {
      const failed = this.failure(job, controller.signal, err);
      outcome = failed;
      if (failed.code !== 'SHUTDOWN')
        log.info({ code: failed.code, state: failed.state, err }, 'job runner: a job did not succeed');
    } finally {
      clearInterval(heartbeat);
      clearTimeout(timeout);
    }
    const cause = controller.signal.aborted ? (controller.signal.reason as AbortCause) : undefined;
    if (cause === 'lease-lost') return; // another process owns it now: write nothing
    const saved = await finishJob(db, job.id, this.owner, outcome, clock.now()).catch((err: unknown) => {
      log.error({ err }, 'job runner: recording the end of a job failed (its lease will run out and it is retried)');
      return false;
    });
    if (!saved) log.warn('job runner: a job ended after its lease was lost');
  }

  /** What a failed or aborted attempt leads to. */
  private failure(job: JobRow, signal: AbortSignal, err: unknown): Failure {
    const cause = signal.aborted ? (signal.reason as AbortCause) : undefined;
    if (cause === 'cancelled') return { state: 'cancelled', code: 'CANCELLED', message: 'Cancelled while running' };
    if (cause === 'shutdown')
      return {
        state: 'queued',
        code: 'SHUTDOWN',
        message: 'The server stopped; the job runs again',
        runAfter: this.deps.clock.now(),
        refundAttempt: true,
      };
    const error =
      cause === 'timeout'
        ? new JobError('TIMEOUT', 'The job took too long', true)
        : err instanceof JobError
          ? err
          : err instanceof DatabaseUnavailableError
            ? new JobError('DATABASE_UNAVAILABLE', err.message, true)
            : new JobError('INTERNAL', err instanceof Error ? err.message : String(err), false);
    if (error.retryable && job.attempts < job.max_attempts)
      return { state: 'queued', code: error.code, message: error.message, runAfter: this.retryAt(job.attempts) };
    return { state: 'failed', code: error.code, message: error.message };
  }

  /** When attempt `attempts + 1` may start: exponential backoff with ±25 % jitter, capped. */
  private retryAt(attempts: number): Date {
    const base = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** Math.max(0, attempts - 1));
    const jittered = base * (0.75 + Math.random() * 0.5);
    return new Date(this.deps.clock.now().getTime() + Math.round(jittered));
  }
}
