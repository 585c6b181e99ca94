import { describe, expect, it } from 'vitest';
import { AccessSweep, type SweptConnection } from '../../sync-server/docs/access-sweep';
import type { SyncAccess } from '../../sync-server/docs/access';
import { CloseCode, docNameOf, type Refusal, type SyncAddress } from '../../shared/sync-contract';
import { sleep, waitFor } from '../helpers/wait';

/**
 * The access sweep's bookkeeping on its own, with 1,000 stand-in connections
 * (what a busy process holds): triggers coalesce, one check per token and
 * document, a bounded number in flight, and only loss of access closes.
 */

const silent = { error: () => undefined, warn: () => undefined };

interface Probe {
  checks: number;
  inFlight: number;
  maxInFlight: number;
  decide: (credential: string) => Refusal | undefined;
}

function connection(probe: Probe, credential: string, address: SyncAddress, results: Map<SweptConnection, string>) {
  const access: SyncAccess = {
    target: { ...address, docName: docNameOf(address) },
    principal: { userId: credential, displayName: credential, email: null, photoUrl: null, instanceAdmin: false },
    credential,
    initial: undefined,
    async recheck() {
      probe.checks++;
      probe.inFlight++;
      probe.maxInFlight = Math.max(probe.maxInFlight, probe.inFlight);
      await sleep(1);
      probe.inFlight--;
      return probe.decide(credential);
    },
  };
  const c: SweptConnection = {
    access,
    accessChecked: (refusal) => void results.set(c, refusal ? String(refusal.code) : 'kept'),
  };
  return c;
}

describe('access sweep', () => {
  it('checks 1,000 connections once per token and document, 8 at a time, after many triggers', async () => {
    const probe: Probe = {
      checks: 0,
      inFlight: 0,
      maxInFlight: 0,
      decide: (credential) => {
        const n = Number(credential.slice(1));
        if (n % 10 === 0) return { code: CloseCode.unauthorized, reason: 'token revoked' };
        if (n % 10 === 1) return { code: CloseCode.notFound, reason: 'space not found' };
        if (n % 10 === 2) return { code: CloseCode.readOnly, reason: 'read-only' };
        return undefined;
      },
    };
    const results = new Map<SweptConnection, string>();
    const connections: SweptConnection[] = [];
    // 100 tokens x 2 documents x 5 sockets each (tabs).
    for (let token = 0; token < 100; token++)
      for (const kind of ['content', 'discussion'] as const)
        for (let tab = 0; tab < 5; tab++)
          connections.push(connection(probe, `t${token}`, { spaceId: `space${token % 7}`, kind }, results));
    const sweep = new AccessSweep(() => connections, silent, { intervalMs: 5, concurrency: 8 });
    for (let i = 0; i < 50; i++) sweep.trigger();
    await waitFor(() => results.size === connections.length, 10_000, 'every connection checked');
    expect(probe.checks).toBe(200);
    expect(probe.maxInFlight).toBeLessThanOrEqual(8);
    const tally = (code: string) => [...results.values()].filter((r) => r === code).length;
    expect(tally(String(CloseCode.unauthorized))).toBe(100);
    expect(tally(String(CloseCode.notFound))).toBe(100);
    // A write refusal is handed over too; the connection decides (SyncConnection closes only on loss of access).
    expect(tally(String(CloseCode.readOnly))).toBe(100);
    expect(tally('kept')).toBe(700);
    // The 50 triggers made one sweep, not 50.
    await sleep(50);
    expect(probe.checks).toBe(200);
    sweep.close();
  });

  it('sweeps once more when triggered during a sweep, and not after close', async () => {
    let checks = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const c: SweptConnection = {
      access: {
        target: { spaceId: 's', kind: 'content', docName: 'space/s/content' },
        principal: { userId: 'u', displayName: 'u', email: null, photoUrl: null, instanceAdmin: false },
        credential: 'x',
        initial: undefined,
        async recheck() {
          checks++;
          if (checks === 1) await gate;
          return undefined;
        },
      },
      accessChecked: () => undefined,
    };
    const sweep = new AccessSweep(() => [c], silent, { intervalMs: 5 });
    sweep.trigger();
    await waitFor(() => checks === 1, 10_000, 'the first sweep');
    // A change during the sweep: the rows it read may predate it.
    sweep.trigger();
    sweep.trigger();
    release();
    await waitFor(() => checks === 2, 10_000, 'the second sweep');
    await sleep(50);
    expect(checks).toBe(2);
    sweep.close();
    sweep.trigger();
    await sleep(50);
    expect(checks).toBe(2);
  });
});
