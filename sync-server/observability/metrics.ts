import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import type { DocHub } from '../docs/hub';

/**
 * Prometheus metrics of one server process: request rate and latency by
 * route, open documents, connected sockets, update fan-out lag, plus Node's
 * process metrics. Labels use the route pattern (`/v1/spaces/:spaceId`),
 * never the raw URL, so ids cannot blow up the number of series.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({ name: 'folio_http_requests_total', help: 'HTTP requests answered', labelNames: ['method', 'route', 'status'], registers: [this.registry] });
  private readonly latency = new Histogram({
    name: 'folio_http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly fanoutLag = new Histogram({
    name: 'folio_update_fanout_lag_seconds',
    help: 'Time from receiving a client update to broadcasting it (the commit included)',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });

  constructor(hub: DocHub, sockets: () => number) {
    collectDefaultMetrics({ register: this.registry, prefix: 'folio_' });
    new Gauge({ name: 'folio_open_documents', help: 'Yjs documents in memory', registers: [this.registry], collect() { this.set(hub.openDocuments); } });
    new Gauge({ name: 'folio_connected_sockets', help: 'Open sync WebSocket connections', registers: [this.registry], collect() { this.set(sockets()); } });
    hub.onFanoutLag = (ms) => this.fanoutLag.observe(ms / 1000);
  }

  /** Counts and times every request by its route pattern (unmatched ones as "unknown"). */
  instrument(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unknown';
      this.requests.inc({ method: request.method, route, status: String(reply.statusCode) });
      this.latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    });
  }
}
