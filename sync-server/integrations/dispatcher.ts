import { newId } from '../http/ids';
import type { Queryable } from '../store/db';
import {
  findEventForDelivery,
  findIntegration,
  findIntegrationRuntime,
  insertEventRow,
  recordEventAttempt,
  type IntegrationRow,
} from '../store/integrations';
import { deliverToSandbox, deliverToTunnel } from './deliver';
import { encodeDispatch } from './dispatch-format';
import { buildEnvironment, loadTargetRows } from './environment';
import { verdictOf, type Verdict } from './outcome';
import { boundedTrace, traceEntry } from './trace';
import type { DeliveryResult, DispatcherDeps, EventSpec, EventTarget, InProcessApi } from './types';

/** The job kind delivering a queued event (subject: the event id). */
export const INTEGRATION_EVENT_JOB = 'integration-event';

/** Attempts of a background event: with the runner's backoff (2 s doubling), about 30 s of retries. */
export const EVENT_MAX_ATTEMPTS = 5;

/**
 * The event dispatcher (GitBook's dispatch format, issue 32). Every event is a row of
 * `integration_events`, pending until delivered, then `success` or `failed`, with a trace of its
 * delivery attempts, the HTTP status, the script's console output and the failure reason.
 *
 * - Background events (installation setup, content updated, tasks) are queued with `queue` in the
 *   transaction of the change that causes them, as a job of the job runner (event-job.ts): delivered
 *   once across processes, retried with backoff when a retry may help (see outcome.ts, deliver.ts).
 * - Synchronous events (`fetch` on a public endpoint, `ui_render` of a block) go through `dispatchNow`,
 *   recorded the same way, and their answer is returned to the caller.
 *
 * Delivery goes to the development tunnel when the integration has one and the event concerns the
 * owner organization (or every organization, `dev_all`), else to the published script in the sandbox.
 */
export class IntegrationDispatcher {
  private api: InProcessApi | undefined;

  constructor(private readonly deps: DispatcherDeps) {}

  /** Serves scripts' calls to this server's API in-process (server.ts, once the app is built). */
  attachApi(api: InProcessApi): void {
    this.api = api;
  }

  /** Queues a background event in `tx` (its row and its job); resolves with the event id. */
  async queue(tx: Queryable, spec: EventSpec, runAfter?: Date): Promise<string> {
    const id = newId();
    const job = await this.deps.enqueueJob(
      { kind: INTEGRATION_EVENT_JOB, payload: { eventId: id }, subject: `integration-event:${id}`, runAfter },
      tx,
    );
    await insertEventRow(
      tx,
      { ...rowTarget(spec), id, type: spec.event.type, payload: eventOf(id, spec), jobId: job.id },
      this.deps.clock.now(),
    );
    return id;
  }

  /**
   * Delivers an event now and records it; resolves with the event id and what the integration
   * answered. `stored` replaces the payload kept in the event's row (a request's credentials left out).
   */
  async dispatchNow(
    spec: EventSpec,
    options: { signal?: AbortSignal; stored?: Record<string, unknown> } = {},
  ): Promise<{ eventId: string; result: DeliveryResult; verdict: Verdict }> {
    const id = newId();
    const event = eventOf(id, spec);
    const { db, clock } = this.deps;
    await insertEventRow(
      db,
      { ...rowTarget(spec), id, type: spec.event.type, payload: { ...event, ...options.stored } },
      clock.now(),
    );
    const result = await this.deliver(spec, event, options.signal);
    const verdict = verdictOf(spec.event.type, result, clock.now());
    await recordEventAttempt(db, id, verdict.status, boundedTrace(verdict.trace), clock.now());
    return { eventId: id, result, verdict };
  }

  /**
   * One attempt of a queued event (the job's run): `done` when the event reached its end (success
   * or failed), `retry` with the reason when the job should try again (the event stays pending).
   */
  async attempt(
    eventId: string,
    attempt: { number: number; max: number },
    signal: AbortSignal,
  ): Promise<{ done: true } | { done: false; reason: string }> {
    const { db, clock } = this.deps;
    const row = await findEventForDelivery(db, eventId);
    if (!row || row.status !== 'pending') return { done: true }; // unpublished (cascade) or already delivered
    const spec: EventSpec = {
      integrationName: row.integration_name,
      ...(row.installation_id ? { installationId: row.installation_id } : {}),
      ...(row.organization_id ? { organizationId: row.organization_id } : {}),
      ...(row.space_id ? { spaceId: row.space_id } : {}),
      ...(row.site_id ? { siteId: row.site_id } : {}),
      event: row.payload as EventSpec['event'],
    };
    const result = await this.deliver(spec, row.payload, signal);
    // Stopped (shutdown, lease lost): the runner queues it again; this attempt leaves no trace.
    signal.throwIfAborted();
    const verdict = verdictOf(row.type, result, clock.now());
    const header = traceEntry(clock.now(), 'info', `Attempt ${attempt.number} of ${attempt.max}`);
    const trace = [header, ...verdict.trace];
    if (verdict.status === 'failed' && verdict.retryable && attempt.number < attempt.max) {
      trace.push(traceEntry(clock.now(), 'warn', 'Tried again later'));
      await recordEventAttempt(db, eventId, 'pending', boundedTrace(trace), clock.now());
      return { done: false, reason: verdict.reason };
    }
    await recordEventAttempt(db, eventId, verdict.status, boundedTrace(trace), clock.now());
    return { done: true };
  }

  private async deliver(
    target: EventTarget & { fetchBody?: Uint8Array },
    event: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<DeliveryResult> {
    const now = () => this.deps.clock.now();
    const integration = await findIntegration(this.deps.db, target.integrationName);
    const rows = integration && (await loadTargetRows(this.deps, integration, target, String(event.type)));
    if (!integration || !rows) {
      const reason = integration ? 'The installation no longer exists' : 'The integration no longer exists';
      return { ok: false, reason, retryable: false, trace: [traceEntry(now(), 'error', reason)] };
    }
    const environment = await buildEnvironment(this.deps, rows, target);
    const dispatch = await encodeDispatch(event, environment, target.fetchBody);
    const tunnel = tunnelFor(integration, rows.installation?.organization_id ?? target.organizationId);
    if (tunnel) return deliverToTunnel(this.deps, tunnel, dispatch, signal);
    const runtime = await findIntegrationRuntime(this.deps.db, integration.name);
    return deliverToSandbox(this.deps, runtime?.script ?? null, dispatch, () => this.api, signal);
  }
}

/**
 * The development tunnel an event goes to, if any: the owner organization's events (and events of
 * no installation) while development mode is on; every organization's with `dev_all`. `org` is the
 * organization the event concerns.
 */
export function tunnelFor(integration: IntegrationRow, org: string | undefined): string | undefined {
  if (!integration.dev_tunnel_url) return undefined;
  return integration.dev_all || org === undefined || org === integration.organization_id
    ? integration.dev_tunnel_url
    : undefined;
}

/** GitBook's Event: its id first, then the event's own fields. */
const eventOf = (id: string, spec: EventSpec): Record<string, unknown> => ({ eventId: id, ...spec.event });

const rowTarget = (t: EventTarget) => ({
  integrationName: t.integrationName,
  ...(t.installationId ? { installationId: t.installationId } : {}),
  ...(t.organizationId ? { organizationId: t.organizationId } : {}),
  ...(t.spaceId ? { spaceId: t.spaceId } : {}),
  ...(t.siteId ? { siteId: t.siteId } : {}),
});
