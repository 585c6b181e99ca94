import { useRef, useState } from 'preact/hooks';
import { describeError } from '../../api/client';
import { Icon } from '../../ui/kit/icon';

/**
 * Runs a screen's writes one at a time (a second click while one is under way does nothing, so
 * two moves never race each other), and keeps the last refusal to show: "Could not … : <the
 * server's message>". The store reloads after a refusal too, so the screen shows what is true.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const running = useRef(false);
  const run = async <T,>(what: string, write: () => Promise<T>): Promise<T | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setBusy(true);
    setError('');
    try {
      return await write();
    } catch (err) {
      setError(`Could not ${what}: ${describeError(err)}`);
      return undefined;
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { run, busy, error, clear: () => setError('') };
}

/** The refusal of the last write, until dismissed or the next write. */
export function ActionError({ error, onDismiss }: { error: string; onDismiss: () => void }) {
  if (!error) return null;
  return (
    <div class="state state-error site-action-error" role="alert" data-testid="site-action-error">
      <p>{error}</p>
      <button type="button" class="icon-button" aria-label="Dismiss" title="Dismiss" onClick={onDismiss}>
        <Icon name="x" />
      </button>
    </div>
  );
}
