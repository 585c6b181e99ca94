import type { ComponentChildren } from 'preact';
import { describeError } from '../../api/client';
import type { ResourceState } from '../../stores/resource';

/**
 * The one loading / error-with-retry / content section of the app. While a reload is under way
 * the old content stays (no flash of "Loading…" on every invalidation).
 */
export function AsyncSection<T>(props: {
  state: ResourceState<T>;
  /** What is loading, for "Loading members…" and "Could not load members: …". */
  what: string;
  retry?: () => void;
  children: (data: T) => ComponentChildren;
}): preact.JSX.Element {
  const { state, what, retry } = props;
  if ('data' in state && state.data !== undefined && state.status !== 'error') return <>{props.children(state.data)}</>;
  if (state.status === 'error')
    return <ErrorState message={`Could not load ${what}: ${describeError(state.error)}`} retry={retry} />;
  return <Loading what={what} />;
}

/** The standard loading placeholder. */
export function Loading({ what }: { what: string }) {
  return (
    <p class="state state-loading" role="status">
      Loading {what}…
    </p>
  );
}

/** The standard error block, with a retry button when the failure may be temporary. */
export function ErrorState({ message, retry }: { message: string; retry?: (() => void) | undefined }) {
  return (
    <div class="state state-error" role="alert">
      <p>{message}</p>
      {retry && (
        <button type="button" onClick={() => retry()}>
          Retry
        </button>
      )}
    </div>
  );
}

/** The standard empty-state block, with an optional action. */
export function EmptyState(props: { message: string; action?: { label: string; run: () => void; testid?: string } }) {
  const { message, action } = props;
  return (
    <div class="state state-empty">
      <p>{message}</p>
      {action && (
        <button type="button" onClick={() => action.run()} data-testid={action.testid}>
          {action.label}
        </button>
      )}
    </div>
  );
}
