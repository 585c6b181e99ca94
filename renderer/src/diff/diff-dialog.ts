import { h } from '../ui/dom';
import { icon } from '../ui/icons';
import { DiffView } from './diff-view';

export interface DiffDialogOptions {
  /** Heading, e.g. the page title. */
  title: string;
  /** What is compared, e.g. "Main → change request #3" (shown under the heading). */
  subtitle?: string;
  /** A short label of the kind of change ("Edited", "Added"…). */
  badge?: string;
  /** Extra buttons in the footer (e.g. "Restore this version"). */
  actions?: HTMLElement[];
  testid?: string;
}

/**
 * A modal window holding a DiffView: wide on a desktop, full screen on a
 * phone. Closes with Escape, the close button or `close()`; the caller fills
 * it with `view.show(before, after)` once both texts are loaded.
 */
export class DiffDialog {
  readonly view = new DiffView();
  readonly dialog: HTMLDialogElement;
  private readonly status = h('p', { class: 'diff-dialog-status', role: 'status' });

  constructor(options: DiffDialogOptions) {
    const close = h(
      'button',
      {
        type: 'button',
        class: 'diff-dialog-close',
        'aria-label': 'Close',
        title: 'Close (Esc)',
        'data-testid': 'diff-close',
        onclick: () => this.close(),
      },
      icon('x'),
    );
    this.dialog = h(
      'dialog',
      { class: 'dialog diff-dialog', 'data-testid': options.testid ?? 'diff-dialog', 'aria-label': options.title },
      h(
        'header',
        { class: 'diff-dialog-header' },
        h(
          'div',
          { class: 'diff-dialog-titles' },
          h(
            'h2',
            {},
            options.title,
            options.badge ? h('span', { class: 'badge diff-dialog-badge' }, options.badge) : null,
          ),
          options.subtitle ? h('p', { class: 'diff-dialog-subtitle' }, options.subtitle) : null,
        ),
        close,
      ),
      this.status,
      this.view.element,
      options.actions?.length ? h('div', { class: 'dialog-actions' }, ...options.actions) : null,
    );
    this.dialog.addEventListener('close', () => this.dialog.remove());
    document.body.append(this.dialog);
    this.dialog.showModal();
  }

  /** A line above the diff ("Loading…", an error); empty hides it. */
  setStatus(text: string, kind: 'info' | 'error' = 'info'): void {
    this.status.textContent = text;
    this.status.classList.toggle('state-error', kind === 'error');
    this.status.hidden = !text;
  }

  close(): void {
    if (this.dialog.open) this.dialog.close();
    this.dialog.remove();
  }
}
