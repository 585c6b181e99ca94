import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server (127.0.0.1, port 0) that holds every request until the test releases it:
 * the job fetching from it is then "running" for as long as the test wants. Each path is one
 * source (one spec); its requests are counted, so a test can tell how many times a job fetched.
 * Released, a path answers a small valid OpenAPI 3.0 document (titled by the path) at once.
 */
export interface HeldServer {
  url: string;
  /** Requests that came to `path`, held or answered. */
  hits(path: string): number;
  /** Requests to `path` held right now (a killed client's request stops being held). */
  waiting(path: string): number;
  /** Answers the held requests of `path`, and every later one at once. */
  release(path: string): void;
  close(): Promise<void>;
}

const specFor = (path: string) =>
  JSON.stringify({
    openapi: '3.0.3',
    info: { title: `Held ${path}`, version: '1.0.0' },
    paths: { '/ping': { get: { operationId: 'ping', responses: { '200': { description: 'pong' } } } } },
  });

export async function startHeldServer(): Promise<HeldServer> {
  const counts = new Map<string, number>();
  const held = new Map<string, Set<http.ServerResponse>>();
  const released = new Set<string>();
  const answer = (path: string, res: http.ServerResponse) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(specFor(path));
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    if (released.has(path)) return answer(path, res);
    const set = held.get(path) ?? new Set();
    held.set(path, set);
    set.add(res);
    // The client went away (a killed server): not held any more.
    res.once('close', () => set.delete(res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: (path) => counts.get(path) ?? 0,
    waiting: (path) => held.get(path)?.size ?? 0,
    release(path) {
      released.add(path);
      for (const res of held.get(path) ?? []) answer(path, res);
      held.delete(path);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
