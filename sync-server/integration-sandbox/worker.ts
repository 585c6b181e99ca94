import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModule, RELEASE_SYNC, type QuickJSWASMModule } from 'quickjs-emscripten';
import type { FromWorker, ToWorker } from './protocol';
import { runInQuickJS } from './run';
import type { SandboxResponse } from './types';

/**
 * The body of a sandbox worker thread (pool.ts starts it): loads QuickJS and the prelude, says it
 * is ready, then runs one script per 'run' message. A script's fetches go to the main thread as
 * 'fetch' messages and come back as 'fetch-result'. After a run that hit a limit, the QuickJS
 * module is replaced by a fresh one (its heap may be damaged, and its memory stays grown).
 */

/** The prelude's files, in order: each may use what the earlier ones define. */
const PRELUDE_FILES = ['console', 'events', 'encoding', 'url', 'clone', 'crypto', 'body', 'fetch', 'invoke'];

/**
 * The prelude as one script: its files share one function scope, which receives the bridge as
 * `host`, removes it from globalThis before any script runs, and answers the worker's entry points.
 */
export function loadPrelude(): string {
  const files = PRELUDE_FILES.map((name) => readFileSync(new URL(`./prelude/${name}.js`, import.meta.url), 'utf8'));
  return `(function (host) {\n'use strict';\ndelete globalThis.__folio;\n${files.join('\n')}\nreturn entryPoints;\n})(globalThis.__folio);`;
}

/** What pool.ts hands a worker: `cancel[0]` is the id of a run to stop (shared, read while a script runs). */
export interface SandboxWorkerData {
  cancel: SharedArrayBuffer;
}

const port = parentPort;
if (port) {
  // The message port is not read while a script runs (the thread is busy in QuickJS): a cancellation
  // is also written here, where the interrupt handler sees it at once.
  const cancelFlag = new Int32Array((workerData as SandboxWorkerData).cancel);
  const prelude = loadPrelude();
  let wasm: QuickJSWASMModule = await newQuickJSWASMModule(RELEASE_SYNC);
  const fetches = new Map<number, { resolve(r: SandboxResponse): void; reject(e: Error): void }>();
  let nextFetch = 1;
  let current: { runId: number; cancelled: boolean; wake?: () => void } | undefined;
  const send = (message: FromWorker) => port.postMessage(message);

  port.on('message', (message: ToWorker) => {
    if (message.type === 'fetch-result') {
      const pending = fetches.get(message.fetchId);
      fetches.delete(message.fetchId);
      if (message.ok) pending?.resolve(message.response);
      else pending?.reject(new Error(message.message));
    } else if (message.type === 'cancel') {
      if (current?.runId === message.runId) {
        current.cancelled = true;
        current.wake?.();
      }
    } else if (message.type === 'run') {
      const run: { runId: number; cancelled: boolean; wake?: () => void } = { runId: message.runId, cancelled: false };
      current = run;
      void runInQuickJS(wasm, prelude, message.script, message.request, message.limits, {
        fetch(request) {
          const fetchId = nextFetch++;
          const answer = new Promise<SandboxResponse>((resolve, reject) => fetches.set(fetchId, { resolve, reject }));
          send({ type: 'fetch', runId: run.runId, fetchId, request });
          return {
            answer,
            abort() {
              if (fetches.delete(fetchId)) send({ type: 'fetch-abort', fetchId });
            },
          };
        },
        cancelled: () => run.cancelled || Atomics.load(cancelFlag, 0) === run.runId,
        onCancel(wake) {
          run.wake = wake;
        },
      }).then(async ({ outcome, poisoned }) => {
        if (poisoned) wasm = await newQuickJSWASMModule(RELEASE_SYNC);
        current = undefined;
        send({ type: 'done', runId: run.runId, outcome });
      });
    }
  });
  send({ type: 'ready' });
}
