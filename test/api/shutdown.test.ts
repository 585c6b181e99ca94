import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { startTestServer, TEST_ADMIN_TOKEN } from '../helpers/server';
import { waitFor } from '../helpers/wait';
import { KEEP_ALIVE_TIMEOUT_MS } from '../../sync-server/http/limits';

/**
 * Shutting down with a request in flight on a keep-alive connection: the request is answered,
 * and the connection is closed right after, so the shutdown does not wait out the 72 s
 * keep-alive timeout (it once did: an e2e file's teardown hit its 60 s hook timeout in CI).
 */
it('answers a request in flight, then closes its keep-alive connection instead of waiting', async () => {
  const t = await startTestServer();
  const { port } = new URL(t.url);
  const body = JSON.stringify({ title: 'Made during shutdown' });
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  const socketClosed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  // Fastify's listener comes first: once this one runs, the request has reached its route.
  const routed = new Promise<void>((resolve) => t.server.app.server.once('request', () => resolve()));
  // The head and half the body: the route has the request, its body is still coming.
  socket.write(
    `POST /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nAuthorization: Bearer ${TEST_ADMIN_TOKEN}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
  );
  await routed;

  const closing = t.close();
  await waitFor(() => !t.server.app.server.listening, 10_000, 'the shutdown to start');
  socket.write(body.slice(10));

  // A bound far above the expected ~1 s and far below the keep-alive timeout: a liveness check.
  const outcome = await Promise.race([
    Promise.all([closing, socketClosed]).then(() => 'closed'),
    new Promise((resolve) => setTimeout(() => resolve('still open'), KEEP_ALIVE_TIMEOUT_MS / 4)),
  ]);
  expect(outcome).toBe('closed');
  expect(received).toMatch(/^HTTP\/1\.1 201 /);
  expect(received).toContain('Made during shutdown');
});
