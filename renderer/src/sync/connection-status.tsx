import { useEffect, useState } from 'preact/hooks';
import type { Outbox } from '../comments/outbox';
import type { IconName } from '../ui/icons';
import { useEventListener } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
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
export function ConnectionStatus({ docs, outbox }: { docs: readonly DocSession[]; outbox: Outbox }) {
  const [, setTick] = useState(0);
  const redraw = () => setTick((n) => n + 1);
  useEffect(() => {
    const offs = [...docs.map((doc) => doc.onState(redraw)), outbox.onChange(redraw)];
    return () => offs.forEach((off) => off());
  }, [docs, outbox]);
  useEventListener(window, 'online', redraw);
  useEventListener(window, 'offline', redraw);

  const queued = outbox.size;
  const state = combineStates(
    docs.map((d) => d.state),
    queued,
    typeof navigator === 'undefined' || navigator.onLine !== false,
  );
  const refusal = docs.find((d) => d.refusal)?.refusal;
  return (
    <span
      class="status"
      role="status"
      aria-live="polite"
      data-testid="sync-status"
      data-state={state}
      title={state === 'refused' && refusal ? `The server refused edits: ${refusal}` : LABELS[state]}
    >
      <Icon name={ICONS[state]} size={14} />
      <span class="status-label">{LABELS[state] + (queued > 0 ? ` (${queued} queued)` : '')}</span>
    </span>
  );
}
