import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { raw } from '../helpers/api';

/**
 * The request metrics label each request by the route pattern it matched,
 * found once per route (Metrics.instrument): also for requests refused before
 * their handler (401), HEAD requests (Fastify's own HEAD routes), routes added
 * before the metrics were installed, and 404s (also those a route hands to the
 * 404 handler), which count as "unknown". Counts must match the requests made, exactly.
 */

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ FOLIO_METRICS_TOKEN: 'scrape-token-0123456789' });
});
afterAll(async () => {
  await t?.close();
});

const scrape = async () => (await raw(t, 'GET', '/metrics', { token: 'scrape-token-0123456789' })).body as string;

/** The value of one folio_http_requests_total series (0 when absent). */
function requests(text: string, method: string, route: string, status: number): number {
  const line = `folio_http_requests_total{method="${method}",route="${route}",status="${status}"} `;
  const at = text.indexOf(line);
  return at < 0 ? 0 : Number(text.slice(at + line.length, text.indexOf('\n', at)));
}

describe('request metrics', () => {
  it('counts requests by route pattern, method and status, refused and unmatched ones included', async () => {
    const spaceRoute = '/v1/spaces/:spaceId';
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await raw(t, 'GET', '/v1/user', { token: t.adminToken })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await raw(t, 'GET', '/v1/user', {})).status).toBe(401);
    expect((await raw(t, 'HEAD', '/v1/user', { token: t.adminToken })).status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await raw(t, 'GET', `/v1/spaces/nosuchspace${i}`, { token: t.adminToken })).status).toBe(404);
    expect((await raw(t, 'GET', '/no/such/path')).status).toBe(404);
    expect((await raw(t, 'OPTIONS', '/app/x', {})).status).toBe(404);
    const after = await scrape();
    const grew = (method: string, route: string, status: number) =>
      requests(after, method, route, status) - requests(before, method, route, status);
    expect(grew('GET', '/v1/user', 200)).toBe(3);
    expect(grew('GET', '/v1/user', 401)).toBe(2);
    expect(grew('HEAD', '/v1/user', 200)).toBe(1);
    expect(grew('GET', spaceRoute, 404)).toBe(2);
    expect(grew('GET', 'unknown', 404)).toBe(1);
    // A route that hands the request to the 404 handler (the CORS OPTIONS route, for paths outside /v1).
    expect(grew('OPTIONS', 'unknown', 404)).toBe(1);
    // The histogram counts the same requests.
    const count = (text: string) =>
      Number(/folio_http_request_duration_seconds_count\{method="GET",route="\/v1\/user"\} (\d+)/.exec(text)?.[1] ?? 0);
    expect(count(after) - count(before)).toBe(5);
  });
});
