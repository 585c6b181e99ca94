import type { FastifyInstance } from 'fastify';

/**
 * Lets any origin call a public JSON route of /auth without credentials: the
 * desktop app's sign-in screen (a file:// page) reads /auth/methods of the
 * server it is given, and exchanges a device code. Neither reads a cookie
 * (`credentials` stays off), so a foreign page learns or gains nothing it
 * could not get with curl. Answers the preflight of `path` (relative to the
 * plugin's prefix, as routes are) too.
 */
export function allowAnyOrigin(app: FastifyInstance, path: string, methods: string): void {
  const url = `${app.prefix}${path}`;
  app.addHook('onSend', async (request, reply) => {
    if (request.routeOptions.url === url) reply.header('access-control-allow-origin', '*');
  });
  app.options(path, { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', methods)
      .header('access-control-allow-headers', 'content-type')
      .header('access-control-max-age', '600')
      .send(),
  );
}
