import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import {
  contentSecurityPolicyOf,
  redactedHeaders,
  requestHeadersOf,
  responseHeadersOf,
} from '../../integrations/public-fetch';
import { PUBLIC_ENDPOINTS_PREFIX } from '../../integrations/public-urls';
import type { EventSpec } from '../../integrations/types';
import { findContentInstallation, findInstallationRow } from '../../store/integration-installations';
import { findIntegration } from '../../store/integrations';

/**
 * The integrations' public endpoints (integrations/public-urls.ts), outside /v1 and without Folio
 * authentication — the integration checks its own callers (a webhook's signature, an OAuth state).
 * GET, POST, PUT and DELETE (GitBook's FetchRequest methods) on the endpoint or below it become a synchronous `fetch` event: GitBook's FetchEvent
 * with the request (method, URL, headers) and its body as `fetch-body`; the integration's answer is
 * sent back with the manifest's Content-Security-Policy. 404 for an unknown integration or
 * installation, 502 (GitBook's error shape) when the integration gave no answer.
 */

/** A request body an integration's endpoint takes (a webhook's JSON, a form post). */
export const PUBLIC_ENDPOINT_BODY_LIMIT = 5 * 1024 * 1024;

const apiError = (reply: FastifyReply, code: number, message: string) =>
  reply.code(code).header('content-type', 'application/json; charset=utf-8').send({ error: { code, message } });

/** The installation (and space or site) a path below an installation's endpoint names. */
function contentOf(rest: string): { kind: 'space' | 'site'; id: string } | undefined {
  const m = /^(spaces|sites)\/([^/?#]+)/.exec(rest);
  if (!m) return undefined;
  return { kind: m[1] === 'spaces' ? 'space' : 'site', id: decodeURIComponent(m[2]!) };
}

async function targetOf(
  ctx: AppContext,
  name: string,
  installationId: string | undefined,
  rest: string,
): Promise<Omit<EventSpec, 'event'> | string> {
  const integration = await findIntegration(ctx.db, name);
  if (!integration) return 'Integration not found';
  if (installationId === undefined) return { integrationName: name };
  const installation = await findInstallationRow(ctx.db, name, installationId);
  if (!installation) return 'Installation not found';
  const content = contentOf(rest);
  if (!content) return { integrationName: name, installationId };
  if (!(await findContentInstallation(ctx.db, content.kind, installationId, content.id)))
    return content.kind === 'space' ? 'Space installation not found' : 'Site installation not found';
  return { integrationName: name, installationId, [content.kind === 'space' ? 'spaceId' : 'siteId']: content.id };
}

async function forward(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  params: { integrationName: string; installationId?: string; '*'?: string },
) {
  const target = await targetOf(ctx, params.integrationName, params.installationId, params['*'] ?? '');
  if (typeof target === 'string') return apiError(reply, 404, target);
  const headers = requestHeadersOf(req.headers);
  // GitBook's FetchRequest knows get, post, put and delete (a HEAD is Fastify's GET without the body).
  const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
  const request = { method, url: `${ctx.urls.root}${req.url}`, headers };
  const body = Buffer.isBuffer(req.body) && req.body.byteLength > 0 ? new Uint8Array(req.body) : undefined;
  const hasBody = body !== undefined && req.method !== 'GET' && req.method !== 'HEAD';
  const aborted = new AbortController();
  req.raw.once('close', () => {
    if (!reply.sent) aborted.abort();
  });
  const { result } = await ctx.integrations.dispatcher.dispatchNow(
    {
      ...target,
      event: {
        type: 'fetch',
        ...(target.installationId ? { installationId: target.installationId } : {}),
        ...(target.spaceId ? { spaceId: target.spaceId } : {}),
        ...(target.siteId ? { siteId: target.siteId } : {}),
        request,
      },
      ...(hasBody ? { fetchBody: body } : {}),
    },
    { signal: aborted.signal, stored: { request: { ...request, headers: redactedHeaders(headers) } } },
  );
  const response = result.ok ? result.response : undefined;
  if (!response) return apiError(reply, 502, result.ok ? 'No answer' : result.reason);
  const integration = await findIntegration(ctx.db, params.integrationName);
  reply.code(response.status);
  for (const [name, value] of responseHeadersOf(response)) reply.header(name, value);
  const csp = integration && contentSecurityPolicyOf(integration.manifest);
  if (csp) reply.header('content-security-policy', csp);
  return reply.send(Buffer.from(response.body));
}

export function integrationEndpointRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    // The integration reads its body as it came (a signed webhook's exact bytes), whatever its type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: PUBLIC_ENDPOINT_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    const config = { public: true };
    const schema = { hide: true };
    type Params = { integrationName: string; installationId?: string; '*'?: string };
    const handler = (req: FastifyRequest, reply: FastifyReply) => forward(ctx, req, reply, req.params as Params);
    const base = `${PUBLIC_ENDPOINTS_PREFIX}/:integrationName`;
    for (const url of [
      `${base}/integration`,
      `${base}/integration/*`,
      `${base}/installations/:installationId`,
      `${base}/installations/:installationId/*`,
    ])
      app.route({ method: ['GET', 'POST', 'PUT', 'DELETE'], url, config, schema, handler });
  };
}
