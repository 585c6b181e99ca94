import { createServer, type IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * Child-process entry of the fan-out benchmark: starts ONE sync server of the
 * given kind on 127.0.0.1 (port picked by the OS), prints `LISTENING <url>`
 * and runs until SIGTERM. Each server gets its own process (and so its own
 * core on a 2-core machine), apart from the 100 clients.
 *
 *   tsx test/bench/sync-servers.ts folio        Folio (BENCH_BACKEND: PGlite on disk, or PostgreSQL)
 *   tsx test/bench/sync-servers.ts y-websocket  the y-websocket 1.5.x reference server (bin/utils setupWSConnection), in memory
 *   tsx test/bench/sync-servers.ts hocuspocus   Hocuspocus (@hocuspocus/server), in memory, no extensions
 */

export type SyncServerKind = 'folio' | 'y-websocket' | 'hocuspocus';

async function startFolio(): Promise<{ url: string; close(): Promise<void> }> {
  const { startBenchServer } = await import('./fixture');
  const b = await startBenchServer();
  return { url: b.url, close: () => b.close() };
}

/** The reference server exactly as y-websocket 1.5's bin/server.js wires it, minus its HTTP banner. */
async function startLegacy(): Promise<{ url: string; close(): Promise<void> }> {
  const require = createRequire(import.meta.url);
  // CommonJS on purpose: the child loads only yjs's CJS build, so no "Yjs was already imported" clash.
  const { setupWSConnection } = require('y-websocket-legacy/bin/utils') as {
    setupWSConnection(ws: WebSocket, req: IncomingMessage, opts?: object): void;
  };
  const wss = new WebSocketServer({ noServer: true });
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => setupWSConnection(ws, req));
  const server = createServer((_req, res) => res.end('y-websocket reference server'));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function startHocuspocus(): Promise<{ url: string; close(): Promise<void> }> {
  const { Server } = await import('@hocuspocus/server');
  const server = new Server({ port: 0, address: '127.0.0.1', quiet: true, stopOnSignals: false });
  await server.listen();
  return { url: `http://127.0.0.1:${server.address.port}`, close: () => server.destroy() };
}

async function main(kind: string): Promise<void> {
  const start = { folio: startFolio, 'y-websocket': startLegacy, hocuspocus: startHocuspocus }[kind as SyncServerKind];
  if (!start) throw new Error(`unknown server kind "${kind}" (folio | y-websocket | hocuspocus)`);
  const running = await start();
  console.log(`LISTENING ${running.url}`);
  process.once('SIGTERM', () => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main(process.argv[2] ?? '').catch((err) => {
  console.error(err);
  process.exit(1);
});
