import { h } from '../ui/dom';
import type { DocSession, DocSyncState } from './doc-session';

/** What the indicator shows. */
export type ConnectionState = 'online' | 'offline' | 'syncing' | 'refused';

/**
 * Combines the states of the open documents and the comment outbox into one
 * indicator: offline if any document has no connection, syncing while a first
 * sync or queued comments are in flight, online when everything is current.
 * (A document the server refused shows why: read-only, merged, no access.)
 */
export function combineStates(states: DocSyncState[], queued: number): ConnectionState {
  if (states.includes('refused')) return 'refused';
  if (states.includes('offline')) return 'offline';
  if (states.includes('syncing') || queued > 0) return 'syncing';
  return 'online';
}

const LABELS: Record<ConnectionState, string> = {
  online: 'Online',
  offline: 'Offline — editing locally',
  syncing: 'Syncing…',
  refused: 'Read-only',
};

/** The status indicator in the header. */
export class ConnectionStatus {
  readonly element = h('span', {
    class: 'status',
    role: 'status',
    'aria-live': 'polite',
    'data-testid': 'sync-status',
  });
  private readonly docs = new Set<DocSession>();
  private readonly offs = new Map<DocSession, () => void>();

  constructor(private readonly queued: () => number) {
    this.update();
  }

  /** Follows a document until `remove` (or the document's destruction). */
  add(doc: DocSession): void {
    this.docs.add(doc);
    this.offs.set(
      doc,
      doc.onState(() => this.update()),
    );
    this.update();
  }

  /** Stops following a document. */
  remove(doc: DocSession): void {
    this.offs.get(doc)?.();
    this.offs.delete(doc);
    this.docs.delete(doc);
    this.update();
  }

  /** Recomputes the indicator (also called when the outbox changes). */
  update(): void {
    const state = combineStates(
      [...this.docs].map((d) => d.state),
      this.queued(),
    );
    const queued = this.queued();
    const refusal = [...this.docs].find((d) => d.refusal)?.refusal;
    this.element.dataset.state = state;
    this.element.textContent = LABELS[state] + (queued > 0 ? ` (${queued} queued)` : '');
    this.element.title = state === 'refused' && refusal ? `The server refused edits: ${refusal}` : LABELS[state];
  }
}
