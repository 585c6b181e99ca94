import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { mintIntegrationTokens } from '../../identity/integration-tokens';
import { createIntegrationServices, type IntegrationServices } from '../../integrations';
import { loadSigningKey } from '../../integrations/signing';
import type { InProcessApi } from '../../integrations/types';
import { parseAllowList } from '../../outbound';
import type { IntegrationSandbox } from '../../integration-sandbox/types';
import { environmentPresenters } from './environment-presenters';

/**
 * Builds the integrations runtime for server.ts: the dispatcher gets the API presenters, the token
 * minting and the job runner from here (it sits below them), the sandbox lazily (QuickJS and its
 * workers load with the first script run, never on the start path).
 */
export async function buildIntegrationServices(
  base: Pick<AppContext, 'db' | 'clock' | 'urls' | 'log' | 'secrets' | 'config' | 'jobRunner'>,
  ctx: () => AppContext,
): Promise<IntegrationServices> {
  let started: Promise<IntegrationSandbox> | undefined;
  const sandbox = () =>
    (started ??= import('../../integration-sandbox').then(({ createIntegrationSandbox }) =>
      createIntegrationSandbox(),
    ));
  const services = createIntegrationServices({
    db: base.db,
    clock: base.clock,
    urls: base.urls,
    log: base.log,
    secrets: base.secrets,
    signingKey: await loadSigningKey(base.config),
    outboundAllow: parseAllowList(base.config.outboundAllow),
    present: environmentPresenters(ctx),
    mintTokens: mintIntegrationTokens,
    sandbox,
    enqueueJob: (job, tx) => base.jobRunner.enqueue(job, tx),
    closeSandbox: async () => {
      if (started) await (await started).close();
    },
  });
  base.jobRunner.register(services.eventJob);
  return services;
}

/** Scripts' calls to this server's API, served by the app in-process (Fastify's inject: no socket). */
export function inProcessApi(app: FastifyInstance): InProcessApi {
  return async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    for (const [name, value] of request.headers) headers[name.toLowerCase()] = value;
    const method = request.method.toUpperCase() as 'GET';
    const res = await app.inject({
      method,
      url: `${url.pathname}${url.search}`,
      headers,
      ...(method === 'GET' || method === 'HEAD' || request.body.byteLength === 0
        ? {}
        : { payload: Buffer.from(request.body) }),
    });
    const out: [string, string][] = [];
    for (const [name, value] of Object.entries(res.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.push([name, String(v)]);
    }
    return {
      status: res.statusCode,
      statusText: res.statusMessage,
      headers: out,
      body: new Uint8Array(res.rawPayload),
    };
  };
}
