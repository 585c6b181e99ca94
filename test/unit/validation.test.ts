import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { installValidators } from '../../sync-server/http/validation';

/**
 * Route validators and response serializers compile on a route's first
 * request (boot time), and behave as when compiled at registration: query
 * strings are coerced, bodies are not, Ajv's errors reach the error handler,
 * defaults are filled in, and responses are serialized by their schema.
 */

let app: FastifyInstance | undefined;
afterEach(async () => app?.close());

async function appWithRoute(): Promise<FastifyInstance> {
  app = Fastify();
  installValidators(app);
  app.setErrorHandler((err: { validation?: unknown; validationContext?: string }, _req, reply) =>
    reply.status(400).send({ where: err.validationContext, validation: err.validation }),
  );
  app.post(
    '/things/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
        querystring: { type: 'object', properties: { limit: { type: 'integer', default: 10 } } },
        body: {
          type: 'object',
          properties: { title: { type: 'string', maxLength: 5 } },
          required: ['title'],
          additionalProperties: false,
        },
        response: { 200: { type: 'object', properties: { id: {}, limit: {}, title: { type: 'string' } } } },
      },
    },
    async (req) => ({ ...(req.params as object), ...(req.query as object), ...(req.body as object), secret: 'x' }),
  );
  await app.ready();
  return app;
}

const post = (a: FastifyInstance, url: string, payload: object) => a.inject({ method: 'POST', url, payload });

describe('validators compiled on first use', () => {
  it('coerces params and query, fills defaults, and serializes the answer by its schema', async () => {
    const a = await appWithRoute();
    const first = await post(a, '/things/7?limit=5', { title: 'hello' });
    expect(first.statusCode).toBe(200);
    // Coerced to numbers; `secret` is not in the response schema, so it is not sent.
    expect(first.json()).toEqual({ id: 7, limit: 5, title: 'hello' });
    const defaulted = await post(a, '/things/8', { title: 'hi' });
    expect(defaulted.json()).toEqual({ id: 8, limit: 10, title: 'hi' });
  });

  it("reports Ajv's errors for each part, on the first and on later requests", async () => {
    const a = await appWithRoute();
    for (let i = 0; i < 2; i++) {
      const long = await post(a, '/things/1', { title: 'too long' });
      expect(long.statusCode).toBe(400);
      expect(long.json()).toMatchObject({
        where: 'body',
        validation: [{ instancePath: '/title', keyword: 'maxLength' }],
      });
      // A body is JSON: a number is not coerced to a string.
      expect((await post(a, '/things/1', { title: 5 })).json()).toMatchObject({
        validation: [{ instancePath: '/title', keyword: 'type' }],
      });
      expect((await post(a, '/things/1', { title: 'ok', extra: 1 })).json()).toMatchObject({
        validation: [{ keyword: 'additionalProperties', params: { additionalProperty: 'extra' } }],
      });
      expect((await post(a, '/things/abc', { title: 'ok' })).json()).toMatchObject({
        where: 'params',
        validation: [{ instancePath: '/id', keyword: 'type' }],
      });
      // Valid again after a failure: no error left over from the call before.
      expect((await post(a, '/things/2', { title: 'ok' })).statusCode).toBe(200);
    }
  });
});
