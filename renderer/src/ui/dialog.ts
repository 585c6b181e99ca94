import { h } from './dom';

/**
 * In-app dialogs (a <dialog> element), instead of window.confirm/prompt:
 * they are styled like the app, work the same in Electron and the browser,
 * and do not block the event loop (the document keeps syncing meanwhile).
 */

/** Asks a yes/no question; resolves true when confirmed. */
export function confirmDialog(message: string, confirmLabel = 'Delete'): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'dialog', 'aria-label': message, 'data-testid': 'confirm-dialog' });
    const close = (answer: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    dialog.append(
      h('p', {}, message),
      h(
        'div',
        { class: 'dialog-actions' },
        h('button', { type: 'button', onclick: () => close(false) }, 'Cancel'),
        h(
          'button',
          { type: 'button', class: 'danger', 'data-testid': 'confirm-yes', onclick: () => close(true) },
          confirmLabel,
        ),
      ),
    );
    dialog.addEventListener('cancel', () => close(false));
    document.body.append(dialog);
    dialog.showModal();
  });
}

/** Asks for one line of text; resolves undefined when cancelled or empty. */
export function promptDialog(message: string, initial = '', okLabel = 'OK'): Promise<string | undefined> {
  return new Promise((resolve) => {
    const input = h('input', { type: 'text', value: initial, 'data-testid': 'prompt-input', 'aria-label': message });
    const form = h(
      'form',
      { method: 'dialog' },
      h('label', {}, message, input),
      h(
        'div',
        { class: 'dialog-actions' },
        h('button', { type: 'button', value: 'cancel', 'data-role': 'cancel' }, 'Cancel'),
        h('button', { type: 'submit', class: 'primary', 'data-testid': 'prompt-ok' }, okLabel),
      ),
    );
    const dialog = h('dialog', { class: 'dialog', 'aria-label': message, 'data-testid': 'prompt-dialog' }, form);
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      dialog.close();
      dialog.remove();
      resolve(value?.trim() ? value.trim() : undefined);
    };
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      finish(input.value);
    });
    form.querySelector('[data-role=cancel]')?.addEventListener('click', () => finish(undefined));
    dialog.addEventListener('cancel', () => finish(undefined));
    document.body.append(dialog);
    dialog.showModal();
    input.select();
  });
}
