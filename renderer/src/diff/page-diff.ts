import { describeError } from '../api/client';
import { DiffDialog } from './diff-dialog';

export interface PageDiffOptions {
  title: string;
  badge?: string;
  subtitle?: string;
  /** The older text (loaded when the dialog opens). */
  before: () => Promise<string> | string;
  /** The newer text. */
  after: () => Promise<string> | string;
  actions?: HTMLElement[];
}

/** Opens a diff dialog and fills it once both texts are loaded. */
export function showPageDiff(options: PageDiffOptions): DiffDialog {
  const dialog = new DiffDialog({ ...options, testid: 'diff-dialog' });
  dialog.setStatus('Loading…');
  Promise.all([options.before(), options.after()]).then(
    ([before, after]) => {
      dialog.setStatus('');
      dialog.view.show(before, after);
    },
    (err) => dialog.setStatus(`Could not load this version: ${describeError(err)}`, 'error'),
  );
  return dialog;
}
