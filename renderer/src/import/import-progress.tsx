import { useState } from 'preact/hooks';
import type { ApiClient } from '../api/client';
import { describeError } from '../api/client';
import { Dialog, DialogActions } from '../ui/kit/dialog';
import { useInterval } from '../ui/kit/hooks';
import { cancelImport, ended, getImport, type ImportRun, type ImportTarget } from './import-api';
import { resultText, runFraction, runningText } from './import-counts';

/** How often a running import is read (the server answers from one row; the pages sync by themselves). */
const POLL_MS = 1000;

/** Skipped resources the result lists (the server lists up to 50; a dialog shows a few). */
const SKIPPED_SHOWN = 5;

/**
 * A started run: read every second while it runs (the interval stops when the dialog closes or the
 * run ends), "x of y pages" and a bar that fills as it reads (a busy bar until it has counted
 * anything), Cancel while it runs, then the result (with what was skipped and why) or the
 * server's reason. The imported pages are not loaded here: the server writes them into the
 * space's document, which the tree already follows.
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
          // An end is final: a read sent before Cancel (or before the end) that answers after it is old news.
          setRun((current) => (ended(current) ? current : next));
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
            <RunBar run={run} />
            <p aria-live="polite" data-testid="import-status">
              {runningText(run)}
            </p>
          </>
        ) : (
          <>
            <p role={run.status === 'failed' ? 'alert' : 'status'} data-testid="import-result">
              {resultText(run)}
            </p>
            <SkippedList run={run} />
          </>
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

/** Determinate once the run has counted what it reads; busy (no value) before, or without counts. */
function RunBar({ run }: { run: ImportRun }) {
  const fraction = runFraction(run);
  if (!fraction) return <progress aria-label="Import progress" data-testid="import-bar" />;
  return <progress aria-label="Import progress" data-testid="import-bar" value={fraction.value} max={fraction.max} />;
}

/** The first few resources a completed run left out, each with its reason. */
function SkippedList({ run }: { run: ImportRun }) {
  const skipped = run.skipped ?? [];
  if (skipped.length === 0) return null;
  // The server lists 50 at most, and one line for pages past a limit it never read: whichever says more.
  const more = Math.max(skipped.length, (run.skippedPages ?? 0) + (run.skippedFiles ?? 0)) - SKIPPED_SHOWN;
  return (
    <ul class="import-skipped" data-testid="import-skipped" aria-label="Skipped">
      {skipped.slice(0, SKIPPED_SHOWN).map((s, i) => (
        <li key={`${i}-${s.source}`}>
          <span class="import-skipped-source">{s.source || 'Other pages'}</span>: {s.message}
        </li>
      ))}
      {more > 0 && <li>and {more} more</li>}
    </ul>
  );
}
