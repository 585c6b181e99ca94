import { h } from '../ui/dom';
import { icon, type IconName } from '../ui/icons';
import type { DocSession, DocSyncState } from './doc-session';

/** What the indicator shows. */
export type ConnectionState = 'online' | 'offline' | 'syncing' | 'refused';

/**
 * Combines the states of the open documents and the comment outbox into one
 * indicator: offline if any document has no connection, syncing while a first
 * sync or queued comments are in flight, online when everything is current.
 * (A document the server refused shows why: read-only, merged, no access.)
 */
export function combineStates(states: DocSyncState[], queued: number, browserOnline = true): ConnectionState {
  if (states.includes('refused')) return 'refused';
  // The browser knows it lost the network before the socket notices (which can take a ping timeout).
  if (!browserOnline) return 'offline';
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

const ICONS: Record<ConnectionState, IconName> = {
  online: 'cloud',
  offline: 'cloud-off',
  syncing: 'refresh',
  refused: 'lock',
};

/**
 * The status indicator in the header. Besides the documents' sockets it
 * follows the browser's `online`/`offline` events, so pulling the network
 * shows "Offline" at once; while the browser says it is online the sockets
 * decide (a reachable network does not mean a reachable server).
 */
export class ConnectionStatus {
  readonly element = h('span', {
    class: 'status',
    role: 'status',
    'aria-live': 'polite',
    'data-testid': 'sync-status',
  });
  private readonly docs = new Set<DocSession>();
  private readonly offs = new Map<DocSession, () => void>();
  private readonly onNetworkChange = () => this.update();
  private listening = false;

  constructor(private readonly queued: () => number) {
    this.update();
  }

  /** Follows a document until `remove` (or the document's destruction). */
  add(doc: DocSession): void {
    this.listen(true);
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
    // The last document gone means the workspace closed: stop listening to the window.
    if (this.docs.size === 0) this.listen(false);
    this.update();
  }

  /** Recomputes the indicator (also called when the outbox changes). */
  update(): void {
    const state = combineStates(
      [...this.docs].map((d) => d.state),
      this.queued(),
      typeof navigator === 'undefined' || navigator.onLine !== false,
    );
    const queued = this.queued();
    const refusal = [...this.docs].find((d) => d.refusal)?.refusal;
    const label = LABELS[state] + (queued > 0 ? ` (${queued} queued)` : '');
    this.element.dataset.state = state;
    this.element.replaceChildren(icon(ICONS[state], { size: 14 }), h('span', { class: 'status-label' }, label));
    this.element.title = state === 'refused' && refusal ? `The server refused edits: ${refusal}` : LABELS[state];
  }

  private listen(on: boolean): void {
    if (on === this.listening || typeof window === 'undefined') return;
    this.listening = on;
    const method = on ? 'addEventListener' : 'removeEventListener';
    window[method]('online', this.onNetworkChange);
    window[method]('offline', this.onNetworkChange);
  }
}
