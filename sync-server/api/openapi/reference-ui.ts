import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StaticDocumentSpec as StaticSpecification } from '@fastify/swagger';

/** Where the browsable API reference is served. */
export const REFERENCE_PREFIX = '/reference';

/** Hop-by-hop and length headers of the inner answer: the outer reply sets its own. */
const NOT_FORWARDED = new Set(['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding']);

/**
 * The browsable reference (Swagger UI, from the package's own assets) at /reference, loaded on its
 * first request into a Fastify instance of its own and answered through it with `inject`. Registered
 * on the server itself, the plugin (its routes, its own copy of @fastify/static, a YAML library) was
 * ~45 ms of every start, for a page people open now and then. The OpenAPI document it shows is the
 * server's (`app.swagger()`, from @fastify/swagger, which must be registered on `app`); the server's
 * hooks (security headers among them) still apply to what is sent.
 */
export function registerReferenceUi(app: FastifyInstance): void {
  let ui: Promise<FastifyInstance> | undefined;
  const load = async () => {
    const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }] = await Promise.all([
      import('fastify'),
      import('@fastify/swagger'),
      import('@fastify/swagger-ui'),
    ]);
    const inner = Fastify();
    // The inner instance shows the server's document, final by now (every route is registered before
    // the server listens): @fastify/swagger's static mode serves a given document.
    // (Its type names OpenAPI 2.0 and 3.0 documents only; ours is 3.1, which Swagger UI shows alike.)
    const document = app.swagger() as unknown as StaticSpecification['document'];
    await inner.register(swagger, { mode: 'static', specification: { document } });
    await inner.register(swaggerUi, {
      routePrefix: REFERENCE_PREFIX,
      uiConfig: { deepLinking: true },
      staticCSP: true,
      // The plugin's policy lets the page be framed by its own origin and upgrades asset requests to https
      // (which breaks the page on a plain-HTTP server); like every page of ours, it is never framed.
      transformStaticCSP: (policy) =>
        policy.replace(/frame-ancestors [^;]*/, "frame-ancestors 'none'").replace(/\s*upgrade-insecure-requests;?/, ''),
    });
    await inner.ready();
    return inner;
  };
  const answer = async (req: FastifyRequest, reply: FastifyReply) => {
    // A failed load is not kept: the next request tries again.
    ui ??= load().catch((err: unknown) => {
      ui = undefined;
      throw err;
    });
    const res = await (
      await ui
    ).inject({
      method: req.method as 'GET' | 'HEAD',
      url: req.url,
      headers: req.headers,
    });
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined && !NOT_FORWARDED.has(name)) void reply.header(name, value);
    }
    return reply.code(res.statusCode).send(res.rawPayload);
  };
  // Only the /v1 API is documented, not the reference page itself.
  app.get(REFERENCE_PREFIX, { schema: { hide: true } }, answer);
  app.get(`${REFERENCE_PREFIX}/*`, { schema: { hide: true } }, answer);
}
