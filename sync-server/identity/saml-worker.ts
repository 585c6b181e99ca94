import { parentPort } from 'node:worker_threads';
import { checkSamlResponse, type SamlCheckInput, type SamlCheckResult } from './saml-check';

/**
 * The body of a SAML verifier thread (saml-verifier.ts starts it): says it is
 * ready once node-saml has loaded, then checks one response per message. The
 * verifier sends a thread one response at a time and terminates it when a
 * check runs over its time budget.
 */

/** A response to check (verifier → thread). */
export interface SamlWorkerJob {
  id: number;
  input: SamlCheckInput;
}

/** What a thread says (thread → verifier). */
export type SamlWorkerMessage = { type: 'ready' } | { type: 'done'; id: number; result: SamlCheckResult };

const port = parentPort;
if (port) {
  port.on('message', (job: SamlWorkerJob) => {
    void checkSamlResponse(job.input).then((result) => {
      const message: SamlWorkerMessage = { type: 'done', id: job.id, result };
      port.postMessage(message);
    });
  });
  const ready: SamlWorkerMessage = { type: 'ready' };
  port.postMessage(ready);
}
