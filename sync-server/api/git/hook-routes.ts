import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { REDACTED, serializeRequest } from '../../observability/log-redaction';
import { GitHookAnswer, GitHookParams } from './settings-schemas';
import { receiveGitHook } from './webhook';

/** The hook's URL in a log line: its last segment is the secret. */
const redactHookUrl = (url: string) => url.replace(/(\/git\/hooks\/[^/?]*\/)[^?]*/, `$1${REDACTED}`);

/**
 * The Git sync webhook (Folio extension), registered as a plugin of its own so that its body
 * parsers reach no other route: Git hosts post JSON, forms (GitHub's form-encoded deliveries) or
 * anything else (a bare `curl -X POST`), up to the server's 1 MB body limit. It is public (the URL's
 * secret is the credential), so the anonymous rate limit of public routes counts its calls per
 * address (http/rate-limit.ts).
 */
export const gitHookRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, text, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(text)))),
    );
    // Whatever else a host sends is kept as text: push-payload.ts reads JSON out of it when it can.
    app.addContentTypeParser('*', { parseAs: 'string' }, (_req, text, done) => done(null, String(text)));
    app.post(
      '/git/hooks/:spaceId/:secret',
      {
        config: { public: true },
        // The request line must not carry the secret into the logs (the shared redaction reads only queries).
        logSerializers: {
          req: (req: FastifyRequest) => ({ ...serializeRequest(req), url: redactHookUrl(req.url) }),
        },
        schema: {
          operationId: 'receiveGitWebhook',
          tags: ['Git'],
          summary:
            "A Git host announces a push: queue an import of the space's branch (Folio extension; no token, the URL is secret)",
          params: GitHookParams,
          response: { 202: GitHookAnswer },
        },
      },
      async (req, reply) => {
        const answer = await receiveGitHook(ctx, req.params.spaceId, req.params.secret, req.body);
        return reply.status(202).send(answer);
      },
    );
  };
