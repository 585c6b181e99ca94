import type { ComponentChildren } from 'preact';
import { AsyncSection } from '../ui/kit/async-section';
import { Dialog, DialogActions } from '../ui/kit/dialog';
import { useAsync } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { Imperative } from '../ui/kit/imperative';
import { DiffView } from './diff-view';
import './diff-dialog.css';

/** The two texts a diff compares. */
export interface DiffTexts {
  before: string;
  after: string;
}

export interface DiffDialogProps {
  /** Heading, e.g. the page title. */
  title: string;
  /** What is compared, e.g. "Main → change request #3" (shown under the heading). */
  subtitle?: string;
  /** A short label of the kind of change ("Edited", "Added"…). */
  badge?: string;
  /** The older text (loaded when the dialog opens). */
  before: () => Promise<string> | string;
  /** The newer text. */
  after: () => Promise<string> | string;
  /** Extra buttons in the footer (e.g. "Restore this version"), given the texts once loaded. */
  actions?: (texts: DiffTexts | undefined) => ComponentChildren;
  onClose: () => void;
}

/**
 * A diff of two versions of a page in the kit's dialog: wide on a desktop, full screen on a phone
 * (diff.css). Both texts load when it opens; then the DiffView (not Preact's) is hosted inside.
 */
export function DiffDialog(props: DiffDialogProps) {
  const { state, retry } = useAsync(async (): Promise<DiffTexts> => {
    const [before, after] = await Promise.all([props.before(), props.after()]);
    return { before, after };
  }, []);
  return (
    <Dialog title={props.title} heading={false} onClose={props.onClose} class="diff-dialog" testid="diff-dialog">
      <header class="diff-dialog-header">
        <div class="diff-dialog-titles">
          <h2>
            {props.title}
            {props.badge && <span class="badge diff-dialog-badge">{props.badge}</span>}
          </h2>
          {props.subtitle && <p class="diff-dialog-subtitle">{props.subtitle}</p>}
        </div>
        <button
          type="button"
          class="diff-dialog-close"
          aria-label="Close"
          title="Close (Esc)"
          data-testid="diff-close"
          onClick={() => props.onClose()}
        >
          <Icon name="x" />
        </button>
      </header>
      <AsyncSection state={state} what="this version" retry={retry}>
        {(texts) => (
          <Imperative
            class="diff-dialog-view"
            deps={[texts]}
            create={(host) => {
              const view = new DiffView();
              host.append(view.element);
              view.show(texts.before, texts.after);
            }}
          />
        )}
      </AsyncSection>
      {props.actions && (
        <DialogActions>{props.actions(state.status === 'ready' ? state.data : undefined)}</DialogActions>
      )}
    </Dialog>
  );
}
