import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import type { DocHub } from '../docs/hub';
import type { RedisFanout } from '../fanout/redis-fanout';

/** The label children of one method and route (see Metrics.seriesOf). */
interface RouteSeries {
  method: string;
  route: string;
  latency: { observe(seconds: number): void };
  byStatus: Map<number, { inc(): void }>;
}

/**
 * Prometheus metrics of one server process: request rate and latency by
 * route, open documents, connected sockets, update fan-out lag, plus Node's
 * process metrics. Labels use the route pattern (`/v1/spaces/:spaceId`),
 * never the raw URL, so ids cannot blow up the number of series.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'folio_http_requests_total',
    help: 'HTTP requests answered',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
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

  readonly remoteFanoutLag = new Histogram({
    name: 'folio_fanout_remote_lag_seconds',
    help: 'Time from another process publishing a committed update to applying it here (across machines, their clock difference included)',
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  constructor(hub: DocHub, sockets: () => number, fanout: () => RedisFanout | undefined = () => undefined) {
    collectDefaultMetrics({ register: this.registry, prefix: 'folio_' });
    new Gauge({
      name: 'folio_open_documents',
      help: 'Yjs documents in memory',
      registers: [this.registry],
      collect() {
        this.set(hub.openDocuments);
      },
    });
    new Gauge({
      name: 'folio_connected_sockets',
      help: 'Open sync WebSocket connections',
      registers: [this.registry],
      collect() {
        this.set(sockets());
      },
    });
    hub.onFanoutLag = (ms) => this.fanoutLag.observe(ms / 1000);
    hub.onRemoteFanoutLag = (ms) => this.remoteFanoutLag.observe(Math.max(0, ms) / 1000);
    this.fanoutMetrics(fanout);
  }

  /** Redis fan-out between processes: connection state and message counts (absent without FOLIO_REDIS_URL). */
  private fanoutMetrics(fanout: () => RedisFanout | undefined): void {
    new Gauge({
      name: 'folio_redis_connected',
      help: '1 when both Redis connections of the fan-out are up (0 down; absent without Redis)',
      registers: [this.registry],
      collect() {
        const f = fanout();
        if (f) this.set(f.connected ? 1 : 0);
      },
    });
    // The fan-out keeps plain running totals; each scrape copies them into counters.
    const counter = (name: string, help: string, read: (f: RedisFanout) => number) =>
      new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          const f = fanout();
          if (!f) return;
          this.reset();
          this.inc(read(f));
        },
      });
    counter(
      'folio_fanout_messages_published_total',
      'Messages published to the other processes',
      (f) => f.stats.published,
    );
    counter(
      'folio_fanout_messages_unpublished_total',
      'Messages not published because Redis was unreachable (the others catch up from the database)',
      (f) => f.stats.publishFailures,
    );
    counter(
      'folio_fanout_messages_received_total',
      'Messages received from the other processes',
      (f) => f.stats.received,
    );
    counter(
      'folio_fanout_resyncs_total',
      'Catch-ups from the database after Redis connections came back',
      (f) => f.stats.resyncs,
    );
  }

  /**
   * The series of one method and route, made once: prom-client hashes a
   * labels object on every call, so the hot path keeps the children instead.
   */
  private readonly series = new Map<string, RouteSeries>();

  private seriesOf(method: string, route: string): RouteSeries {
    const key = `${method} ${route}`;
    let s = this.series.get(key);
    if (!s) {
      s = { method, route, latency: this.latency.labels(method, route), byStatus: new Map() };
      this.series.set(key, s);
    }
    return s;
  }

  /** Counts and times every request by its route pattern (unmatched ones as "unknown"). */
  instrument(app: FastifyInstance): void {
    // A callback hook: no promise per request.
    app.addHook('onResponse', (request, reply, done) => {
      const s = this.seriesOf(request.method, request.routeOptions.url ?? 'unknown');
      const status = reply.statusCode;
      let requests = s.byStatus.get(status);
      if (!requests) {
        requests = this.requests.labels(s.method, s.route, String(status));
        s.byStatus.set(status, requests);
      }
      requests.inc();
      s.latency.observe(reply.elapsedTime / 1000);
      done();
    });
  }
}
