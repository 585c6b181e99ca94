// The y-websocket 1.5 reference server as the fan-out benchmark's baseline in production form: plain node, no tsx
// (see fanout-spawn.ts, StartKind 'production'), wired as its bin/server.js does (sync-servers.ts startLegacy is the
// same through tsx). In memory; prints `LISTENING <url>` and runs until SIGTERM.
import console from 'node:console';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import process from 'node:process';
import { WebSocketServer } from 'ws';

// CommonJS on purpose: only yjs's CJS build is loaded, so no "Yjs was already imported" clash.
const { setupWSConnection } = createRequire(import.meta.url)('y-websocket-legacy/bin/utils');
const wss = new WebSocketServer({ noServer: true });
wss.on('connection', (ws, req) => setupWSConnection(ws, req));
const server = createServer((_req, res) => res.end('y-websocket reference server'));
server.on('upgrade', (req, socket, head) =>
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
console.log(`LISTENING http://127.0.0.1:${server.address().port}`);
// Everything is in memory: nothing to flush.
process.once('SIGTERM', () => process.exit(0));
