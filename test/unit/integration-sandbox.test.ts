import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegrationSandbox, type SandboxHost, type SandboxOutcome } from '../../sync-server/integration-sandbox';
import { bundleIntegration, dispatcherRequest, INTEGRATION_FIXTURES } from '../helpers/integration-bundle';

/**
 * A real GitBook integration (test/fixtures/integrations/hello, written with @gitbook/runtime and
 * bundled as GitBook's CLI bundles it) runs unchanged in the sandbox: it gets the dispatcher's
 * multipart events, and its GitBook API client reaches a real HTTP server through the host's fetch.
 */
const sandbox = createIntegrationSandbox();
let script: string;
let api: Server;
let apiEndpoint: string;
const received: { method: string; url: string; authorization?: string; userAgent?: string }[] = [];

/** The host's way out: a real fetch (as the dispatcher's outbound fetcher would do). */
const host: SandboxHost = {
  async fetch(request, signal) {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body.length ? Buffer.from(request.body) : undefined,
      signal,
    });
    const headers: [string, string][] = [];
    response.headers.forEach((value, name) => headers.push([name, value]));
    return {
      status: response.status,
      statusText: response.statusText,
      headers,
      body: new Uint8Array(await response.arrayBuffer()),
    };
  },
};

function environment() {
  return {
    apiEndpoint,
    apiTokens: { installation: 'installation-token-1', integration: 'integration-token-1' },
    integration: { name: 'folio-hello', version: 3 },
    installation: { id: 'inst-1', configuration: {} },
    secrets: {},
  };
}

const text = (outcome: SandboxOutcome) => (outcome.ok ? new TextDecoder().decode(outcome.response.body) : '');

beforeAll(async () => {
  script = await bundleIntegration(join(INTEGRATION_FIXTURES, 'hello/src/index.js'));
  api = createServer((req: IncomingMessage, res) => {
    received.push({
      method: req.method!,
      url: req.url!,
      authorization: req.headers.authorization,
      userAgent: req.headers['user-agent'],
    });
    if (req.url === '/v1/spaces/space-1/content/pages') {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          pages: [
            { id: 'p1', title: 'Welcome' },
            { id: 'p2', title: 'Install' },
          ],
        }),
      );
    } else {
      res.statusCode = 404;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ error: { code: 404, message: 'Not found' } }));
    }
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiEndpoint = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => api.close(resolve));
});

describe('a @gitbook/runtime integration bundled like GitBook', () => {
  it('is an ES module with a default export, as GitBook CLI builds it', () => {
    expect(script).toMatch(/export\s*\{\s*[\w$]+ as default\s*\}/);
  });

  it('handles an installation_setup event: logs and answers 200', async () => {
    const request = await dispatcherRequest(
      { eventId: 'ev-1', type: 'installation_setup', installationId: 'inst-1' },
      environment(),
    );
    const outcome = await sandbox.run(script, request, host);
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.response.status).toBe(200);
    expect(text(outcome)).toBe('OK');
    const messages = outcome.logs.map((l) => l.message);
    expect(messages).toContain('[integrations] [ev-1] installation_setup');
    expect(messages).toContain('installation_setup for inst-1 of folio-hello');
  });

  it('answers a fetch event with the request it was given', async () => {
    const request = await dispatcherRequest(
      {
        eventId: 'ev-2',
        type: 'fetch',
        installationId: 'inst-1',
        request: {
          method: 'POST',
          url: 'https://integrations.folio.test/echo?x=1&y=%C3%A9',
          headers: { 'x-test': 'yes' },
        },
      },
      environment(),
      'posted body ✓',
    );
    const outcome = await sandbox.run(script, request, host);
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.response.status).toBe(200);
    expect(outcome.response.headers).toContainEqual(['content-type', 'application/json']);
    expect(JSON.parse(text(outcome))).toEqual({
      method: 'POST',
      path: '/echo',
      query: { x: '1', y: 'é' },
      body: 'posted body ✓',
      header: 'yes',
    });
    // ctx.waitUntil work ran before the run ended.
    expect(outcome.logs.map((l) => l.message)).toContain('waitUntil work done');
  });

  it('calls the GitBook API through context.api with the installation token', async () => {
    received.length = 0;
    const request = await dispatcherRequest(
      {
        eventId: 'ev-3',
        type: 'fetch',
        installationId: 'inst-1',
        request: { method: 'GET', url: 'https://integrations.folio.test/pages?space=space-1', headers: {} },
      },
      environment(),
    );
    const outcome = await sandbox.run(script, request, host);
    expect(outcome.ok, JSON.stringify(outcome)).toBe(true);
    expect(JSON.parse(text(outcome)), JSON.stringify(outcome.logs)).toEqual({ titles: ['Welcome', 'Install'] });
    expect(received).toEqual([
      {
        method: 'GET',
        url: '/v1/spaces/space-1/content/pages',
        authorization: 'Bearer installation-token-1',
        userAgent: 'integration-folio-hello/3',
      },
    ]);
  });

  it('answers 400 for a request to a path other than /v1 (production mode)', async () => {
    const request = await dispatcherRequest(
      { eventId: 'ev-4', type: 'installation_setup', installationId: 'inst-1' },
      environment(),
      '',
      'https://integrations.folio.test/v2',
    );
    const outcome = await sandbox.run(script, request, host);
    expect(outcome.ok && outcome.response.status).toBe(400);
  });

  it('answers 406 for an event it does not handle, 500 when the API call fails', async () => {
    const unhandled = await sandbox.run(
      script,
      await dispatcherRequest({ eventId: 'ev-5', type: 'space_content_updated' }, environment()),
      host,
    );
    expect(unhandled.ok && unhandled.response.status).toBe(406);
    const failing = await sandbox.run(
      script,
      await dispatcherRequest(
        {
          eventId: 'ev-6',
          type: 'fetch',
          request: { method: 'GET', url: 'https://integrations.folio.test/pages?space=nope', headers: {} },
        },
        environment(),
      ),
      host,
    );
    expect(failing.ok && failing.response.status).toBe(500);
    expect(JSON.parse(text(failing))).toEqual({ error: 'Internal server error' });
    // The runtime logs the error's stack (QuickJS's stacks are frames only, without V8's message line).
    expect(failing.logs.some((l) => l.level === 'error' && l.message.includes('at '))).toBe(true);
  });
});
