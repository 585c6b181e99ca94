import WebSocket from 'ws';
import * as Y from 'yjs';
import { WebsocketProvider } from 'y-websocket';
import { HocuspocusProvider } from '@hocuspocus/provider';
import { GitBookAPI } from '@gitbook/api';
import { BENCH_ADMIN_TOKEN } from './fixture';
import type { SyncServerKind } from './sync-servers';

/**
 * The clients of the fan-out benchmark: the stock y-websocket
 * WebsocketProvider for Folio and the y-websocket reference server, and
 * Hocuspocus's own provider for Hocuspocus (its frames carry the document
 * name, so the stock provider cannot talk to it).
 */

/** One connected client. */
export interface Peer {
  doc: Y.Doc;
  text: Y.Text;
  synced(): boolean;
  destroy(): void;
}

const SYNC_TIMEOUT_MS = 60_000;

// Each provider registers a process 'exit' listener.
process.setMaxListeners(1000);

function yWebsocketPeer(serverUrl: string, room: string, params: Record<string, string>): Peer {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(serverUrl, room, doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    params,
    // Node has a BroadcastChannel: clients of one process would sync with each other without the server.
    disableBc: true,
  });
  return {
    doc,
    text: doc.getText('body'),
    synced: () => provider.synced,
    destroy: () => {
      provider.destroy();
      doc.destroy();
    },
  };
}

function hocuspocusPeer(url: string, name: string): Peer {
  const doc = new Y.Doc();
  const provider = new HocuspocusProvider({
    url,
    name,
    document: doc,
    WebSocketPolyfill: WebSocket,
  } as ConstructorParameters<typeof HocuspocusProvider>[0]);
  return {
    doc,
    text: doc.getText('body'),
    synced: () => provider.isSynced,
    destroy: () => {
      provider.destroy();
      doc.destroy();
    },
  };
}

/** Connects `count` clients to one document on a server of `kind`; resolves once all have synced. */
export async function connectPeers(kind: SyncServerKind, httpUrl: string, count: number): Promise<Peer[]> {
  const wsUrl = httpUrl.replace(/^http/, 'ws');
  let make: () => Peer;
  if (kind === 'folio') {
    const api = new GitBookAPI({ endpoint: httpUrl, authToken: BENCH_ADMIN_TOKEN });
    const orgId = (await api.orgs.createOrganization({ title: 'Fan-out' })).data.id;
    const spaceId = (await api.orgs.createSpace(orgId, { title: 'Fan-out' })).data.id;
    make = () => yWebsocketPeer(`${wsUrl}/v1/sync/spaces`, spaceId, { token: BENCH_ADMIN_TOKEN });
  } else if (kind === 'y-websocket') {
    make = () => yWebsocketPeer(wsUrl, 'bench-doc', {});
  } else {
    make = () => hocuspocusPeer(wsUrl, 'bench-doc');
  }
  const peers = Array.from({ length: count }, make);
  const deadline = Date.now() + SYNC_TIMEOUT_MS;
  while (!peers.every((p) => p.synced())) {
    if (Date.now() > deadline) {
      for (const p of peers) p.destroy();
      throw new Error(
        `only ${peers.filter((p) => p.synced()).length}/${count} clients synced within ${SYNC_TIMEOUT_MS} ms`,
      );
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return peers;
}
