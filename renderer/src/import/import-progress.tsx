import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client';
import { describeError } from '../api/client';
import { Dialog, DialogActions } from '../ui/kit/dialog';
import { useInterval } from '../ui/kit/hooks';
import { cancelImport, ended, getImport, type ImportRun, type ImportTarget } from './import-api';

/** How often a running import is read (the server answers from one row; the pages sync by themselves). */
const POLL_MS = 1000;

/**
 * A started run: read every second while it runs (the interval stops when the dialog closes or the
 * run ends), Cancel while it runs, then the result or the server's reason. The imported pages are
 * not loaded here: the server writes them into the space's document, which the tree already follows.
 */
export function ImportProgress(props: { api: ApiClient; target: ImportTarget; run: ImportRun; onClose: () => void }) {
  const { api, target } = props;
  const [run, setRun] = useState(props.run);
  const [error, setError] = useState('');
  const [cancelling, setCancelling] = useState(false);
  const running = !ended(run);

  useInterval(
    () => {
      getImport(api, target.organizationId, run.id).then(
        (next) => {
          setRun(next);
          setError('');
        },
        // A missed read (the connection dropped) is said, and the next tick tries again.
        (err) => setError(describeError(err)),
      );
    },
    running ? POLL_MS : undefined,
  );

  const cancel = async () => {
    setCancelling(true);
    try {
      setRun(await cancelImport(api, target.organizationId, run.id));
      setError('');
    } catch (err) {
      setError(describeError(err));
    } finally {
      setCancelling(false);
    }
  };

  return (
    <Dialog title="Import content" onClose={props.onClose} testid="import-dialog" class="form-dialog">
      <div class="import-progress" data-testid="import-progress" data-status={run.status}>
        {running ? (
          <>
            <progress aria-label="Import progress" />
            <p aria-live="polite" data-testid="import-status">
              {run.status === 'pending' ? 'Waiting to start…' : 'Importing…'}
              {run.pages.length > 0 && ` ${pagesDone(run)} of ${run.pages.length} pages imported.`}
            </p>
          </>
        ) : (
          <p role={run.status === 'failed' ? 'alert' : 'status'} data-testid="import-result">
            {resultText(run)}
          </p>
        )}
        <p class="form-message" role="alert" data-testid="import-error">
          {error}
        </p>
      </div>
      <DialogActions>
        {running && (
          <button
            type="button"
            class="danger"
            data-testid="import-cancel"
            disabled={cancelling}
            aria-busy={cancelling}
            onClick={() => void cancel()}
          >
            Cancel import
          </button>
        )}
        <button type="button" class={running ? '' : 'primary'} data-testid="import-close" onClick={props.onClose}>
          {running ? 'Close (keeps importing)' : 'Close'}
        </button>
      </DialogActions>
    </Dialog>
  );
}

const pagesDone = (run: ImportRun) => run.pages.filter((p) => p.status === 'complete').length;
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function resultText(run: ImportRun): string {
  switch (run.status) {
    case 'completed': {
      const done = pagesDone(run);
      const skipped = run.pages.length - done;
      return `Import finished: ${plural(done, 'page')} imported${skipped ? `, ${skipped} skipped` : ''}.`;
    }
    case 'cancelled':
      return 'Import cancelled. Pages already written stay in the space.';
    case 'failed':
      return `Import failed: ${run.reason ?? 'the server gave no reason.'}`;
    default:
      return '';
  }
}
