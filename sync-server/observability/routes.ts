import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { bearerToken } from '../identity/principal';
import { errorBody } from '../http/errors';
import type { Metrics } from './metrics';

/**
 * Liveness (`/healthz`: the process answers), readiness (`/readyz`: the
 * database answers, so a load balancer only sends traffic to a process that
 * can serve it; it also reports the blob store and Redis) and Prometheus metrics (`/metrics`; when FOLIO_METRICS_TOKEN
 * is set, scrapers must send it as a bearer token).
 */
export async function observabilityRoutes(app: FastifyInstance, ctx: AppContext, metrics: Metrics): Promise<void> {
  app.get('/healthz', { config: { public: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
    try {
      await ctx.db.query('SELECT 1');
      // Redis down does not make a process unready: it serves everything, and catches up from the database later.
      const fanout = ctx.fanout;
      // Nor does the blob store (shared by every process: none would be ready): uploads and downloads answer 503.
      const blobs = { store: ctx.storage.blobs.kind, state: await blobStoreState(ctx) };
      return fanout
        ? { status: 'ready', redis: fanout.connected ? 'connected' : 'reconnecting', blobs }
        : { status: 'ready', blobs };
    } catch {
      return reply.status(503).send(errorBody(503, 'The database is not reachable'));
    }
  });

  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const required = ctx.config.metricsToken;
    if (required && bearerToken(req.headers.authorization) !== required)
      return reply.status(401).send(errorBody(401, 'This endpoint needs the metrics token'));
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/** How long /readyz waits for the blob store before calling it unreachable (probes have short timeouts). */
const BLOB_CHECK_MS = 2000;

/** 'reachable' when the blob store answered within BLOB_CHECK_MS, else 'unreachable'. */
async function blobStoreState(ctx: AppContext): Promise<'reachable' | 'unreachable'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'unreachable'>((resolve) => {
    timer = setTimeout(() => resolve('unreachable'), BLOB_CHECK_MS);
  });
  const check = ctx.storage.blobs.check().then(
    () => 'reachable' as const,
    () => 'unreachable' as const,
  );
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
