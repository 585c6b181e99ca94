import type { ComponentChildren } from 'preact';
import { render } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * The app's one dialog: a modal <dialog> (focus kept inside, Escape closes, the page behind inert),
 * styled like the app, in Electron and the browser alike, and never blocking the event loop as
 * window.confirm/prompt would (the document keeps syncing meanwhile).
 */
export function Dialog(props: {
  /** The accessible name (and the heading, unless `heading` is false). */
  title: string;
  heading?: boolean;
  onClose: () => void;
  children: ComponentChildren;
  testid?: string;
  class?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const onClose = useRef(props.onClose);
  onClose.current = props.onClose;
  useEffect(() => {
    const dialog = ref.current!;
    dialog.showModal();
    const cancel = (event: Event) => {
      event.preventDefault();
      onClose.current();
    };
    dialog.addEventListener('cancel', cancel);
    return () => {
      dialog.removeEventListener('cancel', cancel);
      if (dialog.open) dialog.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class={`dialog${props.class ? ` ${props.class}` : ''}`}
      aria-label={props.title}
      data-testid={props.testid}
    >
      {props.heading !== false && <h2 class="dialog-title">{props.title}</h2>}
      {props.children}
    </dialog>
  );
}

/** The row of buttons at the bottom of a dialog. */
export function DialogActions({ children }: { children: ComponentChildren }) {
  return <div class="dialog-actions">{children}</div>;
}

/**
 * Shows a dialog from code that is not a component (a menu action, a key binding): `body` gets a
 * `close(answer)` that unmounts it and resolves the promise.
 */
export function openDialog<T>(body: (close: (answer: T) => void) => ComponentChildren): Promise<T> {
  return new Promise((resolve) => {
    const host = document.createElement('div');
    document.body.append(host);
    let done = false;
    const close = (answer: T) => {
      if (done) return;
      done = true;
      render(null, host);
      host.remove();
      resolve(answer);
    };
    render(<>{body(close)}</>, host);
  });
}

/** Asks a yes/no question; resolves true when confirmed. */
export function confirmDialog(message: string, confirmLabel = 'Delete'): Promise<boolean> {
  return openDialog<boolean>((close) => (
    <Dialog title={message} heading={false} onClose={() => close(false)} testid="confirm-dialog">
      <p>{message}</p>
      <DialogActions>
        <button type="button" onClick={() => close(false)}>
          Cancel
        </button>
        <button type="button" class="danger" data-testid="confirm-yes" onClick={() => close(true)}>
          {confirmLabel}
        </button>
      </DialogActions>
    </Dialog>
  ));
}

/** Asks for one line of text; resolves undefined when cancelled or empty. */
export function promptDialog(message: string, initial = '', okLabel = 'OK'): Promise<string | undefined> {
  return openDialog<string | undefined>((close) => (
    <PromptBody message={message} initial={initial} okLabel={okLabel} close={close} />
  ));
}

function PromptBody(props: {
  message: string;
  initial: string;
  okLabel: string;
  close: (value: string | undefined) => void;
}) {
  const [value, setValue] = useState(props.initial);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.select(), []);
  const finish = (text: string | undefined) => props.close(text?.trim() ? text.trim() : undefined);
  return (
    <Dialog title={props.message} heading={false} onClose={() => finish(undefined)} testid="prompt-dialog">
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          finish(value);
        }}
      >
        <label>
          {props.message}
          <input
            ref={input}
            type="text"
            value={value}
            data-testid="prompt-input"
            aria-label={props.message}
            onInput={(event) => setValue(event.currentTarget.value)}
          />
        </label>
        <DialogActions>
          <button type="button" onClick={() => finish(undefined)}>
            Cancel
          </button>
          <button type="submit" class="primary" data-testid="prompt-ok">
            {props.okLabel}
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
