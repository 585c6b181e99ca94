import type { SandboxLimits, SandboxOutcome, SandboxRequest, SandboxResponse } from './types';

/**
 * The messages between the sandbox pool (main thread, pool.ts) and a sandbox worker thread
 * (worker.ts). A worker runs one script at a time; the script's fetches come to the main thread,
 * which performs them through the run's `SandboxHost` and answers.
 */

/** Main thread → worker. */
export type ToWorker =
  | { type: 'run'; runId: number; script: string; request: SandboxRequest; limits: SandboxLimits }
  /** Stop the run now (its caller gave up): the worker interrupts the script. */
  | { type: 'cancel'; runId: number }
  | { type: 'fetch-result'; fetchId: number; ok: true; response: SandboxResponse }
  | { type: 'fetch-result'; fetchId: number; ok: false; message: string };

/** Worker → main thread. */
export type FromWorker =
  /** QuickJS is loaded: the worker takes runs. */
  | { type: 'ready' }
  | { type: 'fetch'; runId: number; fetchId: number; request: SandboxRequest }
  /** The script aborted a fetch it made (AbortSignal). */
  | { type: 'fetch-abort'; fetchId: number }
  | { type: 'done'; runId: number; outcome: SandboxOutcome };
