import type { FastifyInstance, FastifySchema } from 'fastify';
import swagger from '@fastify/swagger';
import type { AppContext } from '../../context';
import { encodeBody, sendEncoded, type EncodedBody } from '../../http/compression';
import { registerReferenceUi } from './reference-ui';

/**
 * Page-by-path routes match the rest of the URL with Fastify's `*`; GitBook's
 * document names that parameter `pagePath`, and so does ours.
 */
function namePathWildcard(schema: FastifySchema, url: string): { schema: FastifySchema; url: string } {
  const params = schema.params as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  const { '*': wildcard, ...rest } = params?.properties ?? {};
  return {
    url: `${url.slice(0, -1)}:pagePath`,
    schema: {
      ...schema,
      params: {
        ...params,
        properties: { ...rest, pagePath: wildcard },
        required: [...(params?.required ?? []).filter((r) => r !== '*'), 'pagePath'],
      },
    },
  };
}

/**
 * Publishes the OpenAPI document generated from the route schemas (so it can
 * never drift from what is validated) at /v1/openapi.json, and a browsable
 * reference (Swagger UI, loaded on first use: reference-ui.ts) at /reference.
 */
export async function registerOpenApi(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Folio API',
        version: '1',
        description:
          'The documentation-management API of Folio, wire-compatible with the GitBook API for the operations it implements.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'An API token: `Authorization: Bearer <token>`' },
        },
      },
      security: [{ bearer: [] }],
    },
    // Only the /v1 API is documented, not the reference page itself.
    hideUntagged: false,
    transform: ({ schema, url }) => {
      if (!url.startsWith('/v1')) return { schema: { ...schema, hide: true }, url };
      return url.endsWith('/path/*') ? namePathWildcard(schema, url) : { schema, url };
    },
  });
  registerReferenceUi(app);
  // The document (~370 kB) is fixed once the routes are: it is serialized and compressed once, on the first
  // request (not at boot, which it would slow down), and again only if the public URL changes.
  let built: { root: string; body: Promise<EncodedBody> } | undefined;
  const document = () => {
    const root = ctx.urls.root;
    if (built?.root !== root) {
      const doc = app.swagger() as { servers?: unknown };
      const body = encodeBody(JSON.stringify({ ...doc, servers: [{ url: root }] }), { kind: 'static' });
      built = { root, body };
      body.catch(() => {
        if (built?.body === body) built = undefined;
      });
    }
    return built.body;
  };
  app.get('/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const body = await document();
    reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=0, must-revalidate');
    return sendEncoded(req, reply, body);
  });
}
