import { CloseCode, docNameOf, type SyncAddress } from '../../shared/sync-contract';
import type { Decision } from '../../sync-server/policy';
import { upgradeStatus } from './raw-sockets';
import type { TestServer } from './server';
import { synced, syncUrl, type SyncClients } from './sync-clients';
import { waitFor } from './wait';

/**
 * The sync socket's side of the authorization matrix: what one caller's
 * upgrade and first write to a document come to, and what policy says they
 * must come to.
 */

/** 401/404 when the upgrade is refused, 'accepted' when the server document took the write, else the close code. */
export type SocketOutcome = 401 | 404 | 'accepted' | number;

/**
 * Opens `address` with `token` (none when null) and, once upgraded, writes
 * one marker with the stock y-websocket client: 'accepted' once the server's
 * document holds it, or the close code that refused it.
 */
export async function socketOutcome(
  t: TestServer,
  clients: SyncClients,
  address: SyncAddress,
  token: string | null,
): Promise<SocketOutcome> {
  const upgrade = await upgradeStatus(syncUrl(t.url, address, token));
  if (upgrade.status === 401 || upgrade.status === 404) return upgrade.status;
  if (upgrade.status !== 101) throw new Error(`upgrade answered ${upgrade.status}: ${upgrade.body}`);
  const client = clients.connect(t.url, address, token!);
  try {
    await synced(client);
    const marker = `matrix-${Math.random().toString(36).slice(2)}`;
    client.doc.getText('probe').insert(0, marker);
    const serverHas = () =>
      t.server.ctx.hub.withDoc(docNameOf(address), (doc) => doc.getText('probe').toString().includes(marker));
    const outcome = await waitFor(
      async () => {
        const refusal = client.closes.find((c) => c.code >= 4000);
        if (refusal) return refusal.code;
        return (await serverHas()) ? ('accepted' as const) : undefined;
      },
      10_000,
      'the write to be accepted or refused',
    );
    return outcome!;
  } finally {
    client.destroy();
  }
}

/**
 * The close code each refusal must come with: what `docs/access.ts` is
 * specified to send (its mapping is private to it; the contract's codes are
 * named, never numbers).
 */
const CLOSE_CODE_OF: Record<Exclude<Decision, { allowed: true }>['reason'], number> = {
  'not-found': 404,
  forbidden: CloseCode.readOnly,
  'server-only': CloseCode.readOnly,
  deleted: CloseCode.deleted,
  locked: CloseCode.locked,
  closed: CloseCode.locked,
};

/** What policy's decision on writing the document means for a socket: upgrade refused (404), write accepted or closed. */
export function expectedSocketOutcome(decision: Decision): SocketOutcome {
  return decision.allowed ? 'accepted' : CLOSE_CODE_OF[decision.reason];
}
