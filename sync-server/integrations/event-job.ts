import { JobError, type JobKind } from '../jobs/runner';
import { EVENT_MAX_ATTEMPTS, INTEGRATION_EVENT_JOB, type IntegrationDispatcher } from './dispatcher';
import { TUNNEL_TIMEOUT_MS } from './deliver';

/**
 * The job delivering one queued event (its payload: the event id). Delivered once across processes
 * (the runner's claim); a failure a retry may help (see deliver.ts and outcome.ts) is retried with
 * the runner's exponential backoff up to EVENT_MAX_ATTEMPTS, the event staying `pending` meanwhile;
 * then the event is `failed` with every attempt in its trace.
 */
export function integrationEventJob(dispatcher: IntegrationDispatcher): JobKind<{ eventId: string }, undefined> {
  return {
    kind: INTEGRATION_EVENT_JOB,
    maxAttempts: EVENT_MAX_ATTEMPTS,
    // Environment, tunnel (30 s) or script (its own wall limit, about as long): well under this.
    timeoutMs: 4 * TUNNEL_TIMEOUT_MS,
    async run({ job, signal }) {
      const outcome = await dispatcher.attempt(
        job.payload.eventId,
        { number: job.attempts, max: job.max_attempts },
        signal,
      );
      if (!outcome.done) throw new JobError('DELIVERY_FAILED', outcome.reason, true);
      return undefined;
    },
  };
}
