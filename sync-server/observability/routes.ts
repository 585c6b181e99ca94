import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { bearerToken } from '../identity/principal';
import { errorBody } from '../http/errors';
import type { Metrics } from './metrics';

/**
 * Liveness (`/healthz`: the process answers), readiness (`/readyz`: the
 * database answers, so a load balancer only sends traffic to a process that
 * can serve it) and Prometheus metrics (`/metrics`; when FOLIO_METRICS_TOKEN
 * is set, scrapers must send it as a bearer token).
 */
export async function observabilityRoutes(app: FastifyInstance, ctx: AppContext, metrics: Metrics): Promise<void> {
  app.get('/healthz', { config: { public: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
    try {
      await ctx.db.query('SELECT 1');
      // Redis down does not make a process unready: it serves everything, and catches up from the database later.
      const fanout = ctx.fanout;
      return fanout ? { status: 'ready', redis: fanout.connected ? 'connected' : 'reconnecting' } : { status: 'ready' };
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
