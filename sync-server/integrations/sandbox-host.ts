import { fetchOutbound, OutboundError } from '../outbound';
import type { SandboxHost, SandboxRequest, SandboxResponse } from '../integration-sandbox/types';
import type { DispatcherDeps, InProcessApi } from './types';

/**
 * The sandbox's one way out (SandboxHost): a script's `fetch` to this server's own API
 * (`environment.apiEndpoint`, i.e. `<root>/v1/...`) is served in-process — no socket, no trip
 * through the outbound policy, which refuses this server's own loopback address — and anything
 * else goes through the outbound fetcher (SSRF-safe: private addresses refused, redirects
 * re-checked, sizes and times bounded). A non-2xx answer reaches the script as a Response, as
 * `fetch` would give it, not as an error.
 */
export function sandboxHost(deps: DispatcherDeps, api: () => InProcessApi | undefined): SandboxHost {
  return {
    async fetch(request: SandboxRequest, signal: AbortSignal): Promise<SandboxResponse> {
      const own = `${deps.urls.root}/v1`;
      if (request.url === own || request.url.startsWith(`${own}/`) || request.url.startsWith(`${own}?`)) {
        const inProcess = api();
        if (!inProcess) throw new Error('this server’s API is not ready yet');
        return inProcess(request, signal);
      }
      return outbound(deps, request, signal);
    },
  };
}

async function outbound(deps: DispatcherDeps, request: SandboxRequest, signal: AbortSignal): Promise<SandboxResponse> {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) headers[name] = value;
  const method = request.method.toUpperCase();
  try {
    const res = await fetchOutbound(request.url, {
      allow: deps.outboundAllow,
      method,
      headers,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: request.body }),
      signal,
    });
    return { status: res.status, headers: Object.entries(res.headers), body: new Uint8Array(res.body) };
  } catch (err) {
    if (err instanceof OutboundError && err.code === 'http-status' && err.status)
      return {
        status: err.status,
        headers: Object.entries(err.headers ?? {}),
        body: new Uint8Array(err.body ?? Buffer.alloc(0)),
      };
    throw err;
  }
}
