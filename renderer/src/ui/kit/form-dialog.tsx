import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { describeError } from '../../api/client';
import { Dialog, DialogActions } from './dialog';

/**
 * A dialog holding a small form (a title to create, a path to change): Enter submits, the submit
 * button is busy while `onSubmit` runs, and a refusal (a check of the form's own, or the server's
 * 400/409) shows in the dialog, which stays open with what was typed so it can be corrected.
 * `onSubmit` closes the dialog itself when it succeeds (usually by calling `onClose`).
 */
export function FormDialog(props: {
  title: string;
  submitLabel: string;
  onSubmit: () => Promise<void> | void;
  onClose: () => void;
  children: ComponentChildren;
  testid?: string;
  submitTestid?: string;
  /** Disables the submit button (e.g. nothing chosen yet). */
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      await props.onSubmit();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog title={props.title} onClose={props.onClose} testid={props.testid} class="form-dialog">
      {/* Editing the form clears the last refusal: it spoke of what was there before. */}
      <form onSubmit={(event) => void submit(event)} onInput={() => error && setError('')}>
        {props.children}
        <p class="form-message" role="alert" data-testid="form-dialog-error">
          {error}
        </p>
        <DialogActions>
          <button type="button" onClick={() => props.onClose()}>
            Cancel
          </button>
          <button
            type="submit"
            class="primary"
            data-testid={props.submitTestid}
            disabled={busy || props.disabled}
            aria-busy={busy}
          >
            {props.submitLabel}
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** A thrown refusal of a form's own check (shown like the server's). */
export class FormError extends Error {}
