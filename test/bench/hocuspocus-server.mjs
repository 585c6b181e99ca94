// Hocuspocus as the fan-out benchmark's baseline in production form: plain node, no tsx (see fanout.ts,
// StartKind 'production'). In memory, no extensions; prints `LISTENING <url>` and runs until SIGTERM.
import console from 'node:console';
import process from 'node:process';
import { Server } from '@hocuspocus/server';

const server = new Server({ port: 0, address: '127.0.0.1', quiet: true, stopOnSignals: false });
await server.listen();
console.log(`LISTENING http://127.0.0.1:${server.address.port}`);
process.once('SIGTERM', () => {
  server.destroy().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
