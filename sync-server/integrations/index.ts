import { BlockRenderer } from './block-render';
import { IntegrationDispatcher } from './dispatcher';
import { integrationEventJob } from './event-job';
import { createTriggers, type Triggers } from './triggers';
import type { DispatcherDeps } from './types';
import type { JobKind } from '../jobs/runner';

/**
 * The integrations runtime of one server (issue 32): the event dispatcher, the triggers that queue
 * GitBook-generated events, the block renderer, and the job kind delivering queued events. Built
 * once in server.ts and handed to the HTTP modules in the context.
 */
export interface IntegrationServices {
  dispatcher: IntegrationDispatcher;
  triggers: Triggers;
  blocks: BlockRenderer;
  deps: DispatcherDeps;
  /** Register with the job runner. */
  eventJob: JobKind<{ eventId: string }, undefined>;
  /** Stops the sandbox (after the job runner and the HTTP server stopped). */
  close(): Promise<void>;
}

export function createIntegrationServices(deps: DispatcherDeps): IntegrationServices {
  const dispatcher = new IntegrationDispatcher(deps);
  return {
    dispatcher,
    triggers: createTriggers(deps, dispatcher),
    blocks: new BlockRenderer(dispatcher),
    deps,
    eventJob: integrationEventJob(dispatcher),
    close: async () => {
      await deps.closeSandbox?.();
    },
  };
}

export { renderIntegrationBlock } from './published-block';
export { INTEGRATION_EVENT_JOB } from './dispatcher';
export type { EventSpec, EventTarget, TraceEntry } from './types';
