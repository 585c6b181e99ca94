import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { DocHub } from '../docs/hub';
import { prependRouteHook } from '../http/route-hooks';
import type { RedisFanout } from '../fanout/redis-fanout';

declare module 'fastify' {
  interface FastifyRequest {
    /** The metrics series of the request's route and method, set by a route's first hook (see Metrics.instrument). */
    metricsRoute: RouteSeries | undefined;
  }
}

/** Upper bounds (seconds) of the request latency histogram's buckets. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

const LATENCY_NAME = 'folio_http_request_duration_seconds';
const LATENCY_HELP = 'HTTP request latency';
const BUCKET = `${LATENCY_NAME}_bucket`;

/** The requests of one method and route answered with one status: a plain running count. */
interface StatusCount {
  method: string;
  route: string;
  status: string;
  count: number;
}

/** The latency of one method and route in plain numbers: per-bucket (not cumulative) counts, sum and count. */
interface RouteLatency {
  method: string;
  route: string;
  buckets: number[];
  sum: number;
  count: number;
}

/** One method and route's running numbers, kept per route so a request finds them without building a key. */
export class RouteSeries {
  private latency: RouteLatency | undefined;
  private readonly byStatus = new Map<number, StatusCount>();

  constructor(
    private readonly owner: RequestMetrics,
    readonly method: string,
    readonly route: string,
  ) {}

  record(status: number, seconds: number): void {
    let counted = this.byStatus.get(status);
    if (!counted) {
      counted = this.owner.statusCount(this.method, this.route, status);
      this.byStatus.set(status, counted);
    }
    counted.count++;
    const latency = (this.latency ??= this.owner.routeLatency(this.method, this.route));
    // prom-client's rule: the first bucket whose bound is >= the value; beyond the last only +Inf counts it.
    let i = 0;
    for (const le of LATENCY_BUCKETS) {
      if (seconds <= le) break;
      i++;
    }
    if (i < LATENCY_BUCKETS.length) latency.buckets[i] = (latency.buckets[i] ?? 0) + 1;
    latency.sum += seconds;
    latency.count++;
  }
}

/**
 * The request latency histogram, exported from RequestMetrics' plain numbers:
 * a prom-client Histogram (same name, help, label names and buckets, so the
 * registry writes the same text) whose values come from those numbers at
 * scrape time instead of from prom-client's observe(), which hashes the labels
 * and looks the bucket up by a number-keyed object on every call.
 */
class LatencyHistogram extends Histogram<'method' | 'route'> {
  constructor(
    registry: Registry,
    private readonly series: () => readonly RouteLatency[],
  ) {
    super({
      name: LATENCY_NAME,
      help: LATENCY_HELP,
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  /** What prom-client's Histogram.get() returns: per series the cumulative buckets, +Inf, sum and count. */
  override async get() {
    // Field for field what prom-client gives (its JSON reaches cluster aggregation), exemplar slots included.
    type Value = {
      value: number;
      labels: Record<string, string | number>;
      metricName: string;
      exemplar: null | undefined;
    };
    const values: Value[] = [];
    for (const s of this.series()) {
      let cumulative = 0;
      LATENCY_BUCKETS.forEach((le, i) => {
        cumulative += s.buckets[i] ?? 0;
        const labels = { le, method: s.method, route: s.route };
        values.push({ value: cumulative, labels, metricName: BUCKET, exemplar: null });
      });
      const labels = { method: s.method, route: s.route };
      values.push({ value: s.count, labels: { le: '+Inf', ...labels }, metricName: BUCKET, exemplar: null });
      values.push({ value: s.sum, labels: { ...labels }, metricName: `${LATENCY_NAME}_sum`, exemplar: undefined });
      values.push({ value: s.count, labels: { ...labels }, metricName: `${LATENCY_NAME}_count`, exemplar: undefined });
    }
    const help = LATENCY_HELP;
    return { name: LATENCY_NAME, help, type: 'histogram', values, aggregator: 'sum' } as unknown as Awaited<
      ReturnType<Histogram<'method' | 'route'>['get']>
    >;
  }

  /** The registry writes the text from this when it exists (prom-client's Histogram has it): the same values. */
  getForPromString() {
    return this.get();
  }
}

/**
 * Request counts by method, route and status, and request latency by method
 * and route, recorded per request into plain numbers and copied into the
 * prom-client metrics when /metrics is scraped: the exported names, labels,
 * buckets and values are those prom-client's own Counter and Histogram give,
 * without their per-request cost. Series appear in the order of their first
 * request, as prom-client's do.
 */
export class RequestMetrics {
  private readonly counts: StatusCount[] = [];
  private readonly latencies: RouteLatency[] = [];
  private readonly routes = new Map<string, RouteSeries>();

  constructor(registry: Registry) {
    const counts = this.counts;
    new Counter({
      name: 'folio_http_requests_total',
      help: 'HTTP requests answered',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
      collect() {
        this.reset();
        for (const c of counts) this.inc({ method: c.method, route: c.route, status: c.status }, c.count);
      },
    });
    new LatencyHistogram(registry, () => this.latencies);
  }

  /** The running numbers of one method and route (made once per pair). */
  seriesOf(method: string, route: string): RouteSeries {
    const key = `${method} ${route}`;
    let s = this.routes.get(key);
    if (!s) {
      s = new RouteSeries(this, method, route);
      this.routes.set(key, s);
    }
    return s;
  }

  /** Counts and times one request answered with `status` after `ms` milliseconds. */
  record(method: string, route: string, status: number, ms: number): void {
    this.seriesOf(method, route).record(status, ms / 1000);
  }

  /** @internal A new status count of a series, exported from now on. */
  statusCount(method: string, route: string, status: number): StatusCount {
    const c = { method, route, status: String(status), count: 0 };
    this.counts.push(c);
    return c;
  }

  /** @internal The latency numbers of a series, exported from its first request on. */
  routeLatency(method: string, route: string): RouteLatency {
    const l = { method, route, buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
    this.latencies.push(l);
    return l;
  }
}

/**
 * Prometheus metrics of one server process: request rate and latency by
 * route, open documents, connected sockets, update fan-out lag, plus Node's
 * process metrics. Labels use the route pattern (`/v1/spaces/:spaceId`),
 * never the raw URL, so ids cannot blow up the number of series.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new RequestMetrics(this.registry);
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
   * Counts and times every request by its route pattern (unmatched ones as
   * "unknown"). Each route added from here on gets a first onRequest hook
   * that hands the request its route's series, found once per route and
   * method; the onResponse hook asks Fastify for the route pattern only for a
   * request without one (requests answered before the route's own hooks ran,
   * routes added before this call), as reading request.routeOptions builds a
   * new object each time.
   */
  instrument(app: FastifyInstance): void {
    const requests = this.requests;
    app.decorateRequest('metricsRoute', undefined);
    app.addHook('onRoute', (route) => {
      const url = route.url;
      let method = '';
      let series: RouteSeries | undefined;
      const mark: onRequestHookHandler = (request, _reply, done) => {
        // One series per route and method: a route serves one method, or a few (GET and HEAD clones have their own).
        if (request.method !== method) series = requests.seriesOf((method = request.method), url);
        request.metricsRoute = series;
        done();
      };
      // First, so requests the auth hook refuses are found too.
      prependRouteHook(route, 'onRequest', mark);
    });
    // A callback hook: no promise per request.
    app.addHook('onResponse', (request, reply, done) => {
      // is404 (cheap) is also true once a route handed the request to the 404 handler (reply.callNotFound).
      const series = request.is404
        ? requests.seriesOf(request.method, 'unknown')
        : (request.metricsRoute ?? requests.seriesOf(request.method, request.routeOptions.url ?? 'unknown'));
      series.record(reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
}
