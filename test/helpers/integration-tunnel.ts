import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A development tunnel on 127.0.0.1 (what `gitbook dev` exposes): it receives the dispatcher's POSTs
 * and reads them as GitBook's runtime does (`request.formData()`, then `event`, `environment` and
 * `fetch-body`), records them, and answers what the test says — by default 200 "OK", as the
 * runtime answers a handled event. `close` takes it down (a tunnel that went away).
 */

export interface ReceivedDispatch {
  /** The request path (`/v1`: GitBook's dispatch version). */
  path: string;
  method: string;
  contentType: string;
  event: { eventId: string; type: string } & Record<string, unknown>;
  environment: {
    apiEndpoint: string;
    apiTokens: { integration: string; installation?: string };
    integration: Record<string, unknown> & { name: string };
    installation?: Record<string, unknown> & { id: string };
    spaceInstallation?: Record<string, unknown>;
    siteInstallation?: Record<string, unknown>;
    secrets: Record<string, string>;
    signingSecrets: Record<string, string>;
  } & Record<string, unknown>;
  /** The `fetch-body` part's bytes as text, when there is one. */
  fetchBody: string | null;
}

export interface TunnelAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface IntegrationTunnel {
  url: string;
  received: ReceivedDispatch[];
  /** What the next dispatches get (one per entry, then the default); a function decides per dispatch. */
  answers: (TunnelAnswer | ((d: ReceivedDispatch) => TunnelAnswer))[];
  /** The dispatches of one event type. */
  ofType(type: string): ReceivedDispatch[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Parses a dispatch as @gitbook/runtime's integrations.ts does. */
export async function parseDispatch(req: { url: string; method: string; contentType: string; body: Buffer }) {
  const request = new Request(`http://tunnel${req.url}`, {
    method: req.method,
    headers: { 'content-type': req.contentType },
    body: new Uint8Array(req.body),
  });
  const form = await request.formData();
  const fetchBody = form.get('fetch-body');
  return {
    path: new URL(request.url).pathname,
    method: req.method,
    contentType: req.contentType,
    event: JSON.parse(form.get('event') as string) as ReceivedDispatch['event'],
    environment: JSON.parse(form.get('environment') as string) as ReceivedDispatch['environment'],
    fetchBody: fetchBody === null ? null : typeof fetchBody === 'string' ? fetchBody : await fetchBody.text(),
  } satisfies ReceivedDispatch;
}

export async function startIntegrationTunnel(): Promise<IntegrationTunnel> {
  const received: ReceivedDispatch[] = [];
  const answers: IntegrationTunnel['answers'] = [];
  const server: Server = createServer((req, res) => {
    readBody(req)
      .then(async (body) => {
        const dispatch = await parseDispatch({
          url: req.url ?? '/',
          method: req.method ?? 'GET',
          contentType: req.headers['content-type'] ?? '',
          body,
        });
        received.push(dispatch);
        const next = answers.shift() ?? { status: 200, body: 'OK' };
        const answer = typeof next === 'function' ? next(dispatch) : next;
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      })
      .catch((err: unknown) => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`not a dispatch: ${(err as Error).message}`);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answers,
    ofType: (type) => received.filter((d) => d.event.type === type),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
