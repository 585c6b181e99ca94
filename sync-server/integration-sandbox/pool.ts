import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FromWorker, ToWorker } from './protocol';
import type { SandboxWorkerData } from './worker';
import type {
  IntegrationSandbox,
  SandboxFailure,
  SandboxHost,
  SandboxLimits,
  SandboxOutcome,
  SandboxRequest,
} from './types';

/** Settings of the sandbox (defaults in SANDBOX_DEFAULTS). */
export interface IntegrationSandboxOptions {
  /** Limits of a run that does not give its own. */
  limits?: Partial<SandboxLimits>;
  /** Worker threads at most (each runs one script at a time). */
  poolSize?: number;
  /** An idle worker exits after this long (ms), so a server running no integration holds no thread. */
  idleMs?: number;
  /** Runs waiting for a worker at most; more fail at once ('timeout'). */
  maxQueue?: number;
}

export const DEFAULT_LIMITS: SandboxLimits = { memoryBytes: 64 * 1024 * 1024, cpuMs: 10_000, wallMs: 30_000 };

export const SANDBOX_DEFAULTS = { poolSize: 2, idleMs: 60_000, maxQueue: 256 };

/**
 * How long past its wall time a run's worker may take to report before it is terminated: the
 * interrupt handler stops a script within milliseconds, so only a worker stuck outside QuickJS
 * (or dead) takes this long.
 */
const STOP_GRACE_MS = 2_000;

/** Set by scripts/build-server.mjs in the compiled server: the worker's own bundle, relative to this file. */
declare const FOLIO_COMPILED_SANDBOX_WORKER: string | undefined;
/** From the sources, an entry that loads worker.ts through tsx; compiled, the plain-JS worker bundle. */
const WORKER_FILE = fileURLToPath(
  new URL(
    typeof FOLIO_COMPILED_SANDBOX_WORKER === 'string' ? FOLIO_COMPILED_SANDBOX_WORKER : './worker-entry.mjs',
    import.meta.url,
  ),
);

interface Job {
  id: number;
  script: string;
  request: SandboxRequest;
  host: SandboxHost;
  limits: SandboxLimits;
  resolve(outcome: SandboxOutcome): void;
  /** The script's fetches in flight, by id. */
  fetches: Map<number, AbortController>;
  /** Runs out the wait for a worker (queued), then the wall time plus grace (running). */
  timer?: NodeJS.Timeout;
  thread?: Thread;
  done: boolean;
  cleanup?: () => void;
}

interface Thread {
  worker: Worker;
  /** Shared with the worker: the id of the run to stop now (see worker.ts). */
  cancel: Int32Array;
  ready: boolean;
  job?: Job;
  idleTimer?: NodeJS.Timeout;
}

function failure(failure: SandboxFailure, message: string): SandboxOutcome {
  return { ok: false, failure, message, logs: [{ time: new Date().toISOString(), level: 'error', message }] };
}

/**
 * Runs integration scripts in worker threads, each script in QuickJS (worker.ts, run.ts), so a
 * script that loops or allocates without end costs a worker, never the event loop. Workers start
 * on the first run and exit when idle; one that dies or stops answering is terminated and a fresh
 * one takes the next run.
 */
export class SandboxPool implements IntegrationSandbox {
  private readonly threads = new Set<Thread>();
  private readonly queue: Job[] = [];
  private readonly limits: SandboxLimits;
  private readonly options: typeof SANDBOX_DEFAULTS;
  private nextId = 0;
  private closed = false;

  constructor(options: IntegrationSandboxOptions = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.options = {
      poolSize: options.poolSize ?? SANDBOX_DEFAULTS.poolSize,
      idleMs: options.idleMs ?? SANDBOX_DEFAULTS.idleMs,
      maxQueue: options.maxQueue ?? SANDBOX_DEFAULTS.maxQueue,
    };
  }

  /** Worker threads alive right now (starting, idle or busy). */
  get threadCount(): number {
    return this.threads.size;
  }

  run(
    script: string,
    request: SandboxRequest,
    host: SandboxHost,
    options: { limits?: Partial<SandboxLimits>; signal?: AbortSignal } = {},
  ): Promise<SandboxOutcome> {
    if (this.closed) return Promise.resolve(failure('error', 'The integration sandbox is closed'));
    if (this.queue.length >= this.options.maxQueue)
      return Promise.resolve(failure('timeout', 'Too many integration runs are waiting for a sandbox'));
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve(failure('timeout', 'The run was cancelled'));
    const limits = { ...this.limits, ...options.limits };
    return new Promise((resolve) => {
      const job: Job = { id: ++this.nextId, script, request, host, limits, resolve, fetches: new Map(), done: false };
      // A run waits for a worker at most its own wall time.
      job.timer = setTimeout(
        () => this.finish(job, failure('timeout', 'No sandbox worker became free in time')),
        limits.wallMs,
      );
      if (signal) {
        const onAbort = () => this.cancel(job);
        signal.addEventListener('abort', onAbort, { once: true });
        job.cleanup = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Terminates the workers; runs waiting or running end as failures ('error'). */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of [...this.queue]) this.finish(job, failure('error', 'The integration sandbox is closed'));
    const threads = [...this.threads];
    for (const t of threads) if (t.job) this.finish(t.job, failure('error', 'The integration sandbox is closed'));
    await Promise.all(threads.map((t) => this.stop(t)));
  }

  private cancel(job: Job): void {
    if (job.done) return;
    if (!job.thread) {
      this.finish(job, failure('timeout', 'The run was cancelled'));
      return;
    }
    const thread = job.thread;
    Atomics.store(thread.cancel, 0, job.id);
    this.post(thread, { type: 'cancel', runId: job.id });
    clearTimeout(job.timer);
    job.timer = setTimeout(() => this.kill(thread, failure('timeout', 'The run was cancelled')), STOP_GRACE_MS);
  }

  /** Ends a job once: stops its timer and its fetches, leaves the queue or its thread. */
  private finish(job: Job, outcome: SandboxOutcome): void {
    if (job.done) return;
    job.done = true;
    clearTimeout(job.timer);
    job.cleanup?.();
    for (const controller of job.fetches.values()) controller.abort();
    job.fetches.clear();
    const at = this.queue.indexOf(job);
    if (at !== -1) this.queue.splice(at, 1);
    if (job.thread?.job === job) job.thread.job = undefined;
    job.resolve(outcome);
  }

  /** Hands waiting runs to idle ready threads, and starts threads for the rest (up to poolSize). */
  private pump(): void {
    if (this.closed) return;
    for (const thread of this.threads) {
      if (!this.queue.length) return;
      if (thread.ready && !thread.job) this.dispatch(thread, this.queue.shift()!);
    }
    let starting = [...this.threads].filter((t) => !t.ready).length;
    while (this.queue.length > starting && this.threads.size < this.options.poolSize) {
      this.spawn();
      starting++;
    }
  }

  private dispatch(thread: Thread, job: Job): void {
    clearTimeout(thread.idleTimer);
    clearTimeout(job.timer);
    thread.job = job;
    job.thread = thread;
    // The worker stops the script at its wall time; this only catches a worker that cannot.
    job.timer = setTimeout(
      () => this.kill(thread, failure('timeout', `The run took more than ${job.limits.wallMs} ms`)),
      job.limits.wallMs + STOP_GRACE_MS,
    );
    this.post(thread, { type: 'run', runId: job.id, script: job.script, request: job.request, limits: job.limits });
  }

  private post(thread: Thread, message: ToWorker): void {
    thread.worker.postMessage(message);
  }

  private spawn(): void {
    const cancel = new SharedArrayBuffer(4);
    const workerData: SandboxWorkerData = { cancel };
    const worker = new Worker(WORKER_FILE, {
      workerData,
      // The parent's flags (a debugger port, loaders, heap sizes) are not the worker's business.
      execArgv: [],
      // QuickJS's heap is wasm memory, outside V8's heap; the stack holds QuickJS's wasm frames.
      resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 8 },
    });
    // Runs in progress keep the server up; an idle worker must not keep a process alive.
    worker.unref();
    const thread: Thread = { worker, cancel: new Int32Array(cancel), ready: false };
    this.threads.add(thread);
    worker.on('message', (message: FromWorker) => this.onMessage(thread, message));
    worker.on('error', (err: Error & { code?: string }) => {
      const memory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.drop(thread, failure(memory ? 'memory' : 'error', `The sandbox worker failed: ${err.message}`));
    });
    worker.on('exit', () => this.drop(thread, failure('error', 'The sandbox worker exited')));
  }

  private onMessage(thread: Thread, message: FromWorker): void {
    const job = thread.job;
    if (message.type === 'ready') {
      thread.ready = true;
      this.idle(thread);
      this.pump();
    } else if (message.type === 'done') {
      if (job?.id === message.runId) this.finish(job, message.outcome);
      this.idle(thread);
      this.pump();
    } else if (message.type === 'fetch-abort') {
      job?.fetches.get(message.fetchId)?.abort();
      job?.fetches.delete(message.fetchId);
    } else if (message.type === 'fetch' && job?.id === message.runId) {
      const controller = new AbortController();
      job.fetches.set(message.fetchId, controller);
      const answer = (result: ToWorker) => {
        // A fetch outliving its run (or its worker) is not answered.
        if (!job.fetches.delete(message.fetchId) || thread.job !== job) return;
        this.post(thread, result);
      };
      void Promise.resolve()
        .then(() => job.host.fetch(message.request, controller.signal))
        .then(
          (response) => answer({ type: 'fetch-result', fetchId: message.fetchId, ok: true, response }),
          (err: unknown) =>
            answer({
              type: 'fetch-result',
              fetchId: message.fetchId,
              ok: false,
              message: err instanceof Error ? err.message : String(err),
            }),
        );
    }
  }

  /** An idle thread exits after idleMs. */
  private idle(thread: Thread): void {
    if (thread.job) return;
    clearTimeout(thread.idleTimer);
    thread.idleTimer = setTimeout(() => void this.stop(thread), this.options.idleMs);
    thread.idleTimer.unref();
  }

  /** Terminates a thread whose run went past its limits, ending that run with `outcome`. */
  private kill(thread: Thread, outcome: SandboxOutcome): void {
    if (thread.job) this.finish(thread.job, outcome);
    void this.stop(thread);
    this.pump();
  }

  /** Forgets a thread that died; its run (if any) ends with `outcome`. */
  private drop(thread: Thread, outcome: SandboxOutcome): void {
    if (!this.threads.delete(thread)) return;
    clearTimeout(thread.idleTimer);
    if (thread.job) this.finish(thread.job, outcome);
    // A worker that dies before it is ready (failing to start) takes the oldest waiting run with it,
    // so a worker that cannot start is not restarted forever.
    else if (!thread.ready && this.queue.length) this.finish(this.queue[0]!, outcome);
    this.pump();
  }

  private async stop(thread: Thread): Promise<void> {
    this.threads.delete(thread);
    clearTimeout(thread.idleTimer);
    await thread.worker.terminate().catch(() => undefined);
  }
}
