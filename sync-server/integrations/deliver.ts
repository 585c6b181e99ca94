import { fetchOutbound, OutboundError, type OutboundErrorCode } from '../outbound';
import type { SandboxFailure } from '../integration-sandbox/types';
import { dispatchUrl, type DispatchBody } from './dispatch-format';
import { sandboxHost } from './sandbox-host';
import { fromSandboxLog, traceEntry } from './trace';
import type { DeliveryResult, DispatcherDeps, InProcessApi } from './types';

/**
 * One delivery attempt of a dispatch body: to a development tunnel (through the outbound fetcher)
 * or to the published script (in the sandbox). `ok` means the integration answered — whatever the
 * status; what a status means for the event is the dispatcher's call — and `ok: false` that it
 * gave no answer, with whether another attempt may go otherwise:
 *
 * - tunnel unreachable (connection refused, DNS, timeouts): retryable — a developer's tunnel comes
 *   and goes (a laptop asleep, `gitbook dev` restarting);
 * - the tunnel URL refused by the outbound policy, an answer too large, redirects refused: not —
 *   nothing changes by waiting;
 * - the script failing in the sandbox (it threw, ran out of memory or time, has no handler): not
 *   retryable — the same script does the same again, and an endless loop would burn a worker's CPU
 *   budget once per attempt.
 */

/** How long a tunnel has to answer: GitBook's workers stop an event at about 30 s. */
export const TUNNEL_TIMEOUT_MS = 30_000;

const RETRYABLE_TUNNEL: ReadonlySet<OutboundErrorCode> = new Set([
  'network',
  'connect-timeout',
  'dns-failed',
  'timeout',
]);

export async function deliverToTunnel(
  deps: DispatcherDeps,
  tunnelUrl: string,
  dispatch: DispatchBody,
  signal: AbortSignal | undefined,
): Promise<DeliveryResult> {
  const url = dispatchUrl(tunnelUrl);
  const now = () => deps.clock.now();
  const trace = [traceEntry(now(), 'info', `Development mode: POST ${url}`)];
  try {
    const res = await fetchOutbound(url, {
      allow: deps.outboundAllow,
      method: 'POST',
      headers: { 'content-type': dispatch.contentType },
      body: dispatch.body,
      totalTimeoutMs: TUNNEL_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    });
    trace.push(traceEntry(now(), 'info', `The tunnel answered ${res.status}`));
    return {
      ok: true,
      response: { status: res.status, headers: Object.entries(res.headers), body: new Uint8Array(res.body) },
      trace,
    };
  } catch (err) {
    if (err instanceof OutboundError && err.code === 'http-status' && err.status) {
      trace.push(traceEntry(now(), 'warn', `The tunnel answered ${err.status}`));
      const body = new Uint8Array(err.body ?? Buffer.alloc(0));
      return { ok: true, response: { status: err.status, headers: Object.entries(err.headers ?? {}), body }, trace };
    }
    const code = err instanceof OutboundError ? err.code : 'network';
    const reason = `The development tunnel could not be reached: ${err instanceof Error ? err.message : String(err)}`;
    trace.push(traceEntry(now(), 'error', reason));
    return { ok: false, reason, retryable: RETRYABLE_TUNNEL.has(code), trace };
  }
}

const SANDBOX_REASONS: Record<SandboxFailure, string> = {
  timeout: 'The integration’s script ran out of time',
  memory: 'The integration’s script ran out of memory',
  error: 'The integration’s script failed',
  'no-handler': 'The integration’s script has no fetch handler (export default { fetch })',
  'bad-response': 'The integration’s script did not answer a Response',
};

/** The URL the script's handler sees: only its path (`/v1`, the dispatch version) matters to the runtime. */
const SANDBOX_URL = 'https://integration.invalid/v1';

export async function deliverToSandbox(
  deps: DispatcherDeps,
  script: string | null,
  dispatch: DispatchBody,
  api: () => InProcessApi | undefined,
  signal: AbortSignal | undefined,
): Promise<DeliveryResult> {
  const now = () => deps.clock.now();
  if (!script || !deps.sandbox) {
    const reason = !script
      ? 'The integration has no published script'
      : 'This server runs no integration scripts (the sandbox is not available)';
    return { ok: false, reason, retryable: false, trace: [traceEntry(now(), 'error', reason)] };
  }
  const sandbox = await deps.sandbox();
  const outcome = await sandbox.run(
    script,
    { method: 'POST', url: SANDBOX_URL, headers: [['content-type', dispatch.contentType]], body: dispatch.body },
    sandboxHost(deps, api),
    signal ? { signal } : {},
  );
  const trace = outcome.logs.map(fromSandboxLog);
  if (outcome.ok) {
    trace.push(
      traceEntry(
        now(),
        outcome.response.status < 400 ? 'info' : 'warn',
        `The script answered ${outcome.response.status}`,
      ),
    );
    return { ok: true, response: outcome.response, trace };
  }
  const reason = `${SANDBOX_REASONS[outcome.failure]}: ${outcome.message}`;
  trace.push(traceEntry(now(), 'error', reason));
  return { ok: false, reason, retryable: false, trace };
}
