import type { RenderedDiff } from './rendered';
import type { RenderedDiffRequest, RenderedDiffResponse } from './rendered-worker';

/**
 * Runs the rendered diff (rendered.ts) off the main thread, in one module
 * Web Worker (rendered-worker.ts, its own chunk) shared by every diff view:
 * a long page takes a second or more to parse, sanitize and align, which on
 * the main thread would freeze the window (no scrolling, typing or painting).
 *
 * - The worker is started on the first diff, reused for the next ones, and
 *   terminated after a minute without work (it holds the markdown parser).
 * - A diff asked for while another is computing waits for it, unless that
 *   one was given up (its AbortSignal, or its `stale` test says the view
 *   moved on): then the busy worker is terminated and a fresh one takes the
 *   queue, so a newer diff never waits behind one nobody will see.
 * - Where there is no Worker (a test environment) or the worker cannot start
 *   (a policy forbids it), the diff runs on the main thread as before.
 */

/** How long an idle worker is kept before it is terminated (ms). */
const IDLE_MS = 60_000;

/** How a caller gives up a diff. */
export interface RenderedDiffOptions {
  /** Aborting rejects the promise with an AbortError and stops the work if it is running. */
  signal?: AbortSignal;
  /** Asked whenever another diff is requested: true when nobody waits for this one anymore. */
  stale?: () => boolean;
}

interface Job {
  id: number;
  before: string;
  after: string;
  stale: (() => boolean) | undefined;
  resolve(diff: RenderedDiff): void;
  reject(err: unknown): void;
}

/** The error a given-up diff rejects with (tell it apart with isAbortError). */
function abortError(): Error {
  return new DOMException('A newer diff was asked for', 'AbortError');
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

/** The diff on the main thread (no worker): the module loads on first use, as its own chunk. */
function onMainThread(before: string, after: string): Promise<RenderedDiff> {
  return import('./rendered').then((m) => m.renderedDiff(before, after));
}

/** The shared worker and its queue (exported for tests of the policy; the app uses renderedDiffOffThread). */
export class RenderedDiffWorker {
  private worker: Worker | undefined;
  /** The worker could not start: every diff runs on the main thread from then on. */
  private unavailable = typeof Worker === 'undefined';
  /** Diffs asked for and not answered, oldest first; the worker gets one at a time. */
  private readonly queue: Job[] = [];
  /** The job the worker is computing. */
  private busy: Job | undefined;
  private nextId = 1;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly create: () => Worker = startWorker) {}

  /** The rendered diff of two texts (identical to rendered.ts's renderedDiff). */
  run(before: string, after: string, options: RenderedDiffOptions = {}): Promise<RenderedDiff> {
    const { signal, stale } = options;
    if (signal?.aborted) return Promise.reject(abortError());
    // Whatever nobody waits for anymore makes way for this one.
    for (const job of this.queue.slice()) if (job.stale?.()) this.cancel(job);
    if (this.unavailable) return onMainThread(before, after);
    return new Promise<RenderedDiff>((resolve, reject) => {
      const job: Job = { id: this.nextId++, before, after, stale, resolve, reject };
      signal?.addEventListener('abort', () => this.cancel(job), { once: true });
      this.queue.push(job);
      this.pump();
    });
  }

  /** Whether a worker is running now (for tests). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Gives the worker the oldest job when it is free; stops it a while after the last one. */
  private pump(): void {
    if (this.busy) return;
    const job = this.queue[0];
    if (!job) {
      this.whenIdle();
      return;
    }
    const worker = this.ensureWorker();
    if (!worker) {
      this.fail();
      return;
    }
    clearTimeout(this.idleTimer);
    this.busy = job;
    const request: RenderedDiffRequest = { id: job.id, before: job.before, after: job.after };
    worker.postMessage(request);
  }

  private ensureWorker(): Worker | undefined {
    if (this.worker) return this.worker;
    if (this.unavailable) return undefined;
    try {
      const worker = this.create();
      worker.addEventListener('message', (event: MessageEvent<RenderedDiffResponse>) => {
        if (worker === this.worker) this.answer(event.data);
      });
      // The script did not load (or the worker died): its jobs, and later ones, run on the main thread.
      const failed = (event: Event) => {
        event.preventDefault();
        if (worker === this.worker) this.fail();
      };
      worker.addEventListener('error', failed);
      worker.addEventListener('messageerror', failed);
      this.worker = worker;
      return worker;
    } catch {
      this.unavailable = true;
      return undefined;
    }
  }

  private answer(response: RenderedDiffResponse): void {
    const job = this.busy;
    if (!job || job.id !== response.id) return;
    this.busy = undefined;
    this.queue.splice(this.queue.indexOf(job), 1);
    if ('diff' in response) job.resolve(response.diff);
    else job.reject(new Error(response.error));
    this.pump();
  }

  private fail(): void {
    this.worker?.terminate();
    this.worker = undefined;
    this.busy = undefined;
    this.unavailable = true;
    for (const job of this.queue.splice(0)) onMainThread(job.before, job.after).then(job.resolve, job.reject);
  }

  /** Gives a job up; when the worker is computing it, that worker is dropped (the next job starts a fresh one). */
  private cancel(job: Job): void {
    const at = this.queue.indexOf(job);
    if (at < 0) return; // answered already
    this.queue.splice(at, 1);
    job.reject(abortError());
    if (job === this.busy) {
      this.busy = undefined;
      this.worker?.terminate();
      this.worker = undefined;
    }
    this.pump();
  }

  /** With nothing left to compute, the worker is terminated after a while (the next diff starts another). */
  private whenIdle(): void {
    clearTimeout(this.idleTimer);
    if (!this.worker) return;
    this.idleTimer = setTimeout(() => {
      if (this.busy || this.queue.length > 0) return;
      this.worker?.terminate();
      this.worker = undefined;
    }, IDLE_MS);
  }
}

/** The worker script: a module worker Vite bundles as its own chunk. */
function startWorker(): Worker {
  return new Worker(new URL('./rendered-worker.ts', import.meta.url), { type: 'module', name: 'rendered-diff' });
}

let shared: RenderedDiffWorker | undefined;

/** The rendered diff of `before` -> `after`, computed in the shared worker (see the file comment). */
export function renderedDiffOffThread(
  before: string,
  after: string,
  options: RenderedDiffOptions = {},
): Promise<RenderedDiff> {
  shared ??= new RenderedDiffWorker();
  return shared.run(before, after, options);
}
