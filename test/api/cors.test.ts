import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Cross-origin access (sync-server/web-app.ts installCors): every /v1 answer,
 * refusals included, lets any origin read it (`*`, never with credentials)
 * and exposes the headers a client needs; /v1 preflights are answered before
 * authentication; other paths get no CORS headers at all.
 */
let t: TestServer;
let orgId: string;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Cors Org' })).data.id;
});
afterAll(async () => {
  await t?.close();
});

const ORIGIN = 'https://elsewhere.example';
const EXPOSED = 'location, etag, x-request-id, retry-after';

describe('CORS on /v1', () => {
  it('lets any origin read answers and their exposed headers, a 401 included', async () => {
    const ok = await fetch(`${t.url}/v1/orgs/${orgId}`, {
      headers: { origin: ORIGIN, authorization: `Bearer ${t.adminToken}` },
    });
    expect(ok.status).toBe(200);
    const refused = await fetch(`${t.url}/v1/orgs/${orgId}`, { headers: { origin: ORIGIN } });
    expect(refused.status).toBe(401);
    for (const res of [ok, refused]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-expose-headers')).toBe(EXPOSED);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('answers a preflight with 204 before authentication', async () => {
    const res = await fetch(`${t.url}/v1/orgs/${orgId}/spaces`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST,PUT,PATCH,DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('content-length')).toBe('0');
  });

  it('refuses a preflight without Origin or a requested method with a 400 in the error shape', async () => {
    const res = await fetch(`${t.url}/v1/orgs`, { method: 'OPTIONS', headers: { origin: ORIGIN } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(400);
  });
});

describe('CORS elsewhere', () => {
  it('sets no CORS headers outside /v1, and answers other preflights 404', async () => {
    const health = await fetch(`${t.url}/healthz`, { headers: { origin: ORIGIN } });
    expect(health.status).toBe(200);
    expect(health.headers.get('access-control-allow-origin')).toBeNull();
    expect(health.headers.get('access-control-expose-headers')).toBeNull();
    const preflight = await fetch(`${t.url}/healthz`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(404);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});
