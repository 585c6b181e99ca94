import type { MessagePort } from 'node:worker_threads';
import { warmHighlighter } from './highlight';
import { runDiffTask, runTask, type DiffResult, type PoolTask, type TaskResult } from './tasks';

/** What the pool sends a worker: the task and a port on which the worker says it has begun. */
export interface WorkerRequest {
  task: PoolTask;
  started: MessagePort;
}

/**
 * The parse pool's task handler (tinypool calls the default export in a
 * worker thread). It reports its start first: the time budget counts from
 * there, not from when the task was queued or the thread was still booting.
 */
export default function handle(request: WorkerRequest): TaskResult | DiffResult {
  // Compiling the highlighter's grammars is this thread's start-up cost, not the first page's budget.
  if (request.task.kind === 'site') warmHighlighter();
  request.started.postMessage('started');
  return request.task.kind === 'diff' ? runDiffTask(request.task) : runTask(request.task);
}
