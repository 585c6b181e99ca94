import { describe, expect, it } from 'vitest';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestMetrics } from '../../sync-server/observability/metrics';

/**
 * RequestMetrics records requests into plain numbers and exports them at
 * scrape time; the /metrics text must be exactly what prom-client's own
 * Counter and Histogram (the previous implementation) write for the same
 * requests: names, help, labels, bucket bounds, values and series order.
 */

/** The reference: prom-client's metrics, observed per request as before. */
function reference(registry: Registry) {
  const requests = new Counter({
    name: 'folio_http_requests_total',
    help: 'HTTP requests answered',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'folio_http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return (method: string, route: string, status: number, ms: number) => {
    requests.labels(method, route, String(status)).inc();
    latency.labels(method, route).observe(ms / 1000);
  };
}

/** Requests over several routes, methods and statuses, with latencies on, between and beyond the bucket bounds. */
const REQUESTS: [string, string, number, number][] = [];
const routes = ['/v1/spaces/:spaceId', '/v1/orgs', 'unknown', '/v1/quote"d\\route'];
const latencies = [0, 0.2, 1, 1.7, 2.5, 9, 10, 49, 100, 250, 999, 1000, 2500, 4999, 5000, 5001, 60_000];
let n = 0;
for (const ms of latencies)
  for (const route of routes)
    for (const method of ['GET', 'POST', 'HEAD'])
      if (n++ % 3 !== 1) REQUESTS.push([method, route, [200, 404, 304, 500][n % 4] ?? 200, ms + n / 7]);

// Exactly on each bound: a bucket counts values up to and including its bound.
for (const le of [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5])
  REQUESTS.push(['GET', '/v1/orgs', 200, le * 1000]);

describe('RequestMetrics', () => {
  it('exports the same text as prom-client observing every request', async () => {
    const expected = new Registry();
    const observe = reference(expected);
    const actual = new Registry();
    const metrics = new RequestMetrics(actual);
    for (const [method, route, status, ms] of REQUESTS) {
      observe(method, route, status, ms);
      metrics.record(method, route, status, ms);
    }
    const text = await actual.metrics();
    expect(text).toBe(await expected.metrics());
    expect(text).toContain('folio_http_request_duration_seconds_bucket{le="0.001",method="GET",route="/v1/orgs"}');
    // Scraping again counts nothing twice.
    expect(await actual.metrics()).toBe(text);
    // And JSON (cluster aggregation) matches too.
    expect(await actual.getMetricsAsJSON()).toEqual(await expected.getMetricsAsJSON());
  });

  it('exports nothing before the first request', async () => {
    const registry = new Registry();
    new RequestMetrics(registry);
    const expected = new Registry();
    reference(expected);
    expect(await registry.metrics()).toBe(await expected.metrics());
  });
});
