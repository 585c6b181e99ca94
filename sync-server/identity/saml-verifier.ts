import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { SamlCheckInput, SamlCheckResult } from './saml-check';
import type { SamlWorkerJob, SamlWorkerMessage } from './saml-worker';

/** Settings of the verifier (defaults in DEFAULTS). */
export interface SamlVerifierOptions {
  /** Longest one check may run once its thread has begun it (ms); then that thread is terminated. */
  budgetMs?: number;
  /** Longest a response may wait for a free thread (ms); then it is refused as "busy". */
  queueWaitMs?: number;
  /** Responses waiting at most; more are refused at once as "busy". */
  maxQueue?: number;
  /** Threads at most (default: one less than the CPUs, between 1 and 2: the event loop keeps a core). */
  maxThreads?: number;
  /** An idle thread exits after this long (ms), so a server no one signs in to holds none. */
  idleMs?: number;
  /** Heap limit of each thread (MB): a response that needs more fails instead of growing the process. */
  maxHeapMb?: number;
}

/** How a check ended: its result, or why there is none. */
export type SamlVerifyOutcome =
  | { outcome: 'checked'; result: SamlCheckResult }
  /** The check ran over its budget: its thread was terminated. */
  | { outcome: 'timeout' }
  /** No thread was free in time, or too many responses wait already. */
  | { outcome: 'busy' }
  /** The thread died (out of memory, failed to start) or the verifier is closed. */
  | { outcome: 'failed' };

const DEFAULTS: Required<SamlVerifierOptions> = {
  // A response within the pre-parse's caps takes well under a second; a real one ~20 ms.
  budgetMs: 5_000,
  queueWaitMs: 10_000,
  maxQueue: 64,
  maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
  idleMs: 30_000,
  maxHeapMb: 256,
};

/** Set by scripts/build-server.mjs in the compiled server: the worker's own bundle, relative to this file. */
declare const FOLIO_COMPILED_SAML_WORKER: string | undefined;
/** From the sources, an entry that loads saml-worker.ts through tsx; compiled, the plain-JS worker bundle. */
const WORKER_FILE = fileURLToPath(
  new URL(
    typeof FOLIO_COMPILED_SAML_WORKER === 'string' ? FOLIO_COMPILED_SAML_WORKER : './saml-worker-entry.mjs',
    import.meta.url,
  ),
);

interface Job {
  id: number;
  input: SamlCheckInput;
  resolve(outcome: SamlVerifyOutcome): void;
  /** Runs out the wait for a thread (queued), then the budget (running). */
  timer?: NodeJS.Timeout;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  job?: Job;
  idleTimer?: NodeJS.Timeout;
}

/**
 * Checks SAML responses in worker threads (plain node:worker_threads), off
 * the event loop: node-saml's signature check is synchronous XML work
 * (quadratic in the nodes, in xpath), and on the event loop one crafted
 * response stalled every request of the server. A check has a time budget
 * counted from the moment its thread begins it (thread start-up and queueing
 * do not count); past it, the thread is terminated (synchronous work cannot be
 * interrupted any other way) and the next check gets a fresh one. Threads
 * start on the first check and exit when idle, so nothing of SAML loads at
 * boot and an idle server holds no thread.
 */
export class SamlVerifier {
  private readonly options: Required<SamlVerifierOptions>;
  private readonly threads = new Set<Thread>();
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;

  constructor(options: SamlVerifierOptions = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** Worker threads alive right now (starting, idle or busy). */
  get threadCount(): number {
    return this.threads.size;
  }

  /** Checks one response. Never rejects. */
  verify(input: SamlCheckInput): Promise<SamlVerifyOutcome> {
    if (this.closed) return Promise.resolve({ outcome: 'failed' });
    if (this.queue.length >= this.options.maxQueue) return Promise.resolve({ outcome: 'busy' });
    return new Promise((resolve) => {
      const job: Job = { id: ++this.nextId, input, resolve };
      job.timer = setTimeout(() => {
        const at = this.queue.indexOf(job);
        if (at === -1) return;
        this.queue.splice(at, 1);
        resolve({ outcome: 'busy' });
      }, this.options.queueWaitMs);
      job.timer.unref();
      this.queue.push(job);
      this.pump();
    });
  }

  /** Terminates the threads; checks waiting or running end as 'failed'. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      clearTimeout(job.timer);
      job.resolve({ outcome: 'failed' });
    }
    await Promise.all([...this.threads].map((thread) => this.stop(thread)));
  }

  /** Hands waiting responses to idle ready threads, and starts threads for the rest (up to maxThreads). */
  private pump(): void {
    for (const thread of this.threads) {
      if (!this.queue.length) return;
      if (thread.ready && !thread.job) this.dispatch(thread, this.queue.shift()!);
    }
    let starting = [...this.threads].filter((t) => !t.ready).length;
    while (this.queue.length > starting && this.threads.size < this.options.maxThreads) {
      this.spawn();
      starting++;
    }
  }

  private spawn(): void {
    const worker = new Worker(WORKER_FILE, {
      // The parent's flags (a debugger port, loaders, heap sizes) are not the worker's business.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb },
    });
    // Requests waiting on a check keep the server up; an idle thread must not keep a process alive.
    worker.unref();
    const thread: Thread = { worker, ready: false };
    this.threads.add(thread);
    worker.on('message', (message: SamlWorkerMessage) => {
      if (message.type === 'ready') {
        thread.ready = true;
      } else if (message.type === 'done' && thread.job?.id === message.id) {
        const job = thread.job;
        thread.job = undefined;
        clearTimeout(job.timer);
        job.resolve({ outcome: 'checked', result: message.result });
      } else return;
      this.idle(thread);
      this.pump();
    });
    // Out of memory, a crash, or a thread that could not start: its check fails, and when no
    // thread ever became ready the waiting checks fail too (rather than a start-crash loop).
    const died = () => {
      if (!this.threads.delete(thread)) return;
      clearTimeout(thread.idleTimer);
      if (thread.job) {
        clearTimeout(thread.job.timer);
        thread.job.resolve({ outcome: 'failed' });
        thread.job = undefined;
      }
      if (!thread.ready && ![...this.threads].some((t) => t.ready))
        for (const job of this.queue.splice(0)) {
          clearTimeout(job.timer);
          job.resolve({ outcome: 'failed' });
        }
      this.pump();
    };
    worker.on('error', died);
    worker.on('exit', died);
  }

  private dispatch(thread: Thread, job: Job): void {
    clearTimeout(job.timer);
    clearTimeout(thread.idleTimer);
    thread.job = job;
    job.timer = setTimeout(() => {
      if (thread.job !== job) return;
      thread.job = undefined;
      job.resolve({ outcome: 'timeout' });
      void this.stop(thread).then(() => this.pump());
    }, this.options.budgetMs);
    job.timer.unref();
    const message: SamlWorkerJob = { id: job.id, input: job.input };
    thread.worker.postMessage(message);
  }

  private idle(thread: Thread): void {
    clearTimeout(thread.idleTimer);
    thread.idleTimer = setTimeout(() => {
      if (!thread.job) void this.stop(thread);
    }, this.options.idleMs);
    thread.idleTimer.unref();
  }

  /** Forgets a thread and terminates it (a check it was running fails). */
  private async stop(thread: Thread): Promise<void> {
    this.threads.delete(thread);
    clearTimeout(thread.idleTimer);
    if (thread.job) {
      clearTimeout(thread.job.timer);
      thread.job.resolve({ outcome: 'failed' });
      thread.job = undefined;
    }
    await thread.worker.terminate().catch(() => undefined);
  }
}
