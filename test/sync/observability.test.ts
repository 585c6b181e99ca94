import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, raw } from '../helpers/api';
import { connect, synced, type Client } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

let t: TestServer;
let client: Client;
beforeAll(async () => {
  t = await startTestServer({ FOLIO_METRICS_TOKEN: 'scrape-token-0123456789' });
  const orgId = (await t.client.orgs.createOrganization({ title: 'Observed' })).data.id;
  const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Watched' })).data.id;
  client = connect(t.url, spaceId, t.adminToken);
  await synced(client);
  new ContentDoc(client.doc).createPage({ title: 'Measured', markdown: 'hello\n' });
});
afterAll(async () => {
  client?.destroy();
  await t?.close();
});

const scrape = async () => (await raw(t, 'GET', '/metrics', { token: 'scrape-token-0123456789' })).body as string;

describe('health, readiness, metrics, request ids', () => {
  it('answers liveness and readiness without a token', async () => {
    expect((await raw(t, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await raw(t, 'GET', '/readyz')).body).toEqual({
      status: 'ready',
      blobs: { store: 'folder', state: 'reachable' },
    });
  });

  it('exposes request, document, socket and fan-out metrics to the holder of the metrics token', async () => {
    expectError(await raw(t, 'GET', '/metrics'), 401);
    await t.client.orgs.listOrganizationsForAuthenticatedUser();
    const text = await waitFor(
      async () => {
        const body = await scrape();
        return /folio_update_fanout_lag_seconds_count [1-9]/.test(body) ? body : undefined;
      },
      10_000,
      'fan-out metric',
    );
    expect(text).toMatch(/folio_http_requests_total\{method="GET",route="\/v1\/orgs",status="200"\} [1-9]/);
    expect(text).toMatch(/folio_http_request_duration_seconds_bucket\{le="[0-9.]+",method="GET",route="\/v1\/orgs"\}/);
    expect(text).toMatch(/folio_open_documents [1-9]/);
    expect(text).toMatch(/folio_connected_sockets 1/);
    expect(text).toMatch(/folio_process_resident_memory_bytes/);
    // Route patterns, never raw ids, label the series.
    expect(text).not.toMatch(/route="\/v1\/spaces\/[A-Za-z0-9]{20}/);
  });

  it('echoes a safe x-request-id and makes one up otherwise', async () => {
    const mine = await raw(t, 'GET', '/v1/', { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-abc.123');
    const unsafe = await raw(t, 'GET', '/v1/', { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^req-/);
  });
});
