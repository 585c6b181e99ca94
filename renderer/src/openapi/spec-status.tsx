import { Icon } from '../ui/kit/icon';
import type { ProcessErrorCode, Spec } from './openapi-api';

/** How a spec's processing state and last error read in the list and on its own screen. */

/** Whether the server is still working on the spec's newest source (the screens poll meanwhile). */
export const isProcessing = (spec: Pick<Spec, 'processingState'>) => spec.processingState !== 'complete';

/** What each of GitBook's error codes means to the person who gave the source. */
const EXPLANATIONS: Record<ProcessErrorCode, string> = {
  FETCH_TIMEOUT: 'The source URL took too long to answer. Check that it is reachable, then update the source again.',
  FETCH_ERROR:
    'The source could not be fetched: the address is refused, it answered with an error, or a file is too large or cannot be reached.',
  PARSE_ERROR:
    'The document is not a valid OpenAPI 3.0, 3.1 or Swagger 2.0 specification in JSON or YAML. Fix it and update the source.',
};

export const explainError = (code: ProcessErrorCode) => EXPLANATIONS[code] ?? 'The processing failed.';

/** "Queued" or "Processing" with a spinner, "Failed" or "Ready". */
export function ProcessingBadge({ spec }: { spec: Spec }) {
  if (spec.processingState === 'pending' || spec.processingState === 'progress')
    return (
      <span class="badge badge-outdated spec-badge" data-testid="spec-state" data-state={spec.processingState}>
        <Icon name="loader" size={12} class="spec-spinner" />
        {spec.processingState === 'pending' ? 'Queued' : 'Processing'}
      </span>
    );
  if (spec.lastProcessErrorCode)
    return (
      <span class="badge badge-closed spec-badge" data-testid="spec-state" data-state="error">
        <Icon name="circle-alert" size={12} />
        Failed
      </span>
    );
  return (
    <span class="badge badge-active spec-badge" data-testid="spec-state" data-state="complete">
      <Icon name="circle-check" size={12} />
      Ready
    </span>
  );
}

/** "Public" or "Private". */
export function VisibilityBadge({ spec }: { spec: Spec }) {
  return (
    <span class="badge" data-testid="spec-visibility">
      <Icon name={spec.visibility === 'public' ? 'globe' : 'lock'} size={12} />
      {spec.visibility === 'public' ? 'Public' : 'Private'}
    </span>
  );
}

/**
 * The last processing's failure: the code, what it means, the server's own messages (the first of
 * them; it keeps at most 20), and that the previous version is still served when there is one.
 */
export function SpecErrorBlock({ spec, compact }: { spec: Spec; compact?: boolean }) {
  const code = spec.lastProcessErrorCode;
  if (!code) return null;
  const errors = spec.lastProcessedErrors ?? [];
  const shown = compact ? errors.slice(0, 1) : errors;
  const more = spec.lastProcessedErrorCount - shown.length;
  return (
    <div class="spec-error" role="status" data-testid="spec-error" data-code={code}>
      <p class="spec-error-title">
        <Icon name="triangle-alert" size={14} />
        <code data-testid="spec-error-code">{code}</code>
        <span>{explainError(code)}</span>
      </p>
      {shown.length > 0 && (
        <ul class="spec-error-details" data-testid="spec-error-details">
          {shown.map((e, i) => (
            <li key={i}>{e.message}</li>
          ))}
        </ul>
      )}
      {more > 0 && <p class="muted">{more === 1 ? 'And 1 more error.' : `And ${more} more errors.`}</p>}
      {spec.lastVersion && (
        <p class="muted" data-testid="spec-error-kept">
          The previous version is still served.
        </p>
      )}
    </div>
  );
}

/** "3 min ago" style times would go stale on a screen left open: an absolute, local date and time. */
export const formatTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
