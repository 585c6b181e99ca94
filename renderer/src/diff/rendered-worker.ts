// First: the markdown parser's entity decoder needs a `document` when it loads (see worker-dom.ts).
import './worker-dom';
import { renderedDiff, type RenderedDiff } from './rendered';

/**
 * The rendered diff, computed in a module Web Worker (started by
 * rendered-client.ts): parsing, sanitizing and aligning two versions of a
 * long page takes a second or more, which on the main thread would freeze the
 * window. One request at a time: `{ id, before, after }` in, `{ id, diff }` or
 * `{ id, error }` out.
 */

/** A request to the worker. */
export interface RenderedDiffRequest {
  id: number;
  before: string;
  after: string;
}

/** The worker's answer to the request with the same id. */
export type RenderedDiffResponse = { id: number; diff: RenderedDiff } | { id: number; error: string };

/** The worker's global scope, as far as this file uses it (the project's types are the window's). */
const scope = self as unknown as {
  addEventListener(type: 'message', listener: (event: MessageEvent<RenderedDiffRequest>) => void): void;
  postMessage(message: RenderedDiffResponse): void;
};

scope.addEventListener('message', (event) => {
  const { id, before, after } = event.data;
  let response: RenderedDiffResponse;
  try {
    response = { id, diff: renderedDiff(before, after) };
  } catch (err) {
    response = { id, error: err instanceof Error ? err.message : String(err) };
  }
  scope.postMessage(response);
});
