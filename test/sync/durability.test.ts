import { afterAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { gitbookClient, startTestServer, type TestServer } from '../helpers/server';
import { CloseCode, spaceContentDoc } from '../../shared/sync-contract';
import { DocumentWriteError } from '../../sync-server/docs/hub';
import { durableStorage, type DurableStorage } from '../helpers/durable-server';
import { spawnFolio, type FolioProcess } from '../helpers/processes';
import { SyncClients, synced } from '../helpers/sync-clients';
import { sleep, waitFor } from '../helpers/wait';

/**
 * Durability: an update is committed before any other client receives it, so
 * a `kill -9` loses nothing anybody saw; and a write the database refuses is
 * neither applied nor broadcast.
 */

const processes: FolioProcess[] = [];
const clients = new SyncClients();
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  clients.destroyAll();
  for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.crash();
  for (const fn of cleanups) await fn();
});

/** Starts `npm start`'s entry point (sync-server/main.ts) as a child process on `storage`. */
async function spawnServer(storage: DurableStorage): Promise<FolioProcess> {
  const server = await spawnFolio({ ...storage.env, FOLIO_LOG_LEVEL: 'warn' });
  processes.push(server);
  return server;
}

describe('kill -9', () => {
  it('keeps every update that any other client had received', async () => {
    const storage = await durableStorage();
    cleanups.push(() => storage.cleanup());
    const first = await spawnServer(storage);
    const api = gitbookClient(first.url);
    const orgId = (await api.orgs.createOrganization({ title: 'Crash Org' })).data.id;
    const spaceId = (await api.orgs.createSpace(orgId, { title: 'Crash' })).data.id;
    const writer = clients.connect(first.url, spaceId);
    const observer = clients.connect(first.url, spaceId);
    await Promise.all([synced(writer), synced(observer)]);

    // The observer kills the server the moment it has seen 300 updates, while the writer keeps writing
    // (with broadcast-before-commit, what the observer saw would not all be stored yet).
    let seen: number[] = [];
    const killed = new Promise<void>((resolve) => {
      observer.doc.getArray<number>('log').observe(() => {
        if (seen.length > 0) return;
        const now = observer.doc.getArray<number>('log').toArray();
        if (now.length < 300) return;
        first.crash();
        seen = now;
        resolve();
      });
    });
    let next = 0;
    const writing = setInterval(() => {
      for (let i = 0; i < 5; i++) writer.doc.getArray<number>('log').push([next++]);
    }, 1);
    await killed;
    clearInterval(writing);
    await first.exited;
    writer.destroy();
    observer.destroy();

    const second = await spawnServer(storage);
    const after = clients.connect(second.url, spaceId);
    await synced(after);
    const recovered = after.doc.getArray<number>('log').toArray();
    expect(recovered.length).toBeGreaterThanOrEqual(seen.length);
    expect(recovered.slice(0, seen.length)).toEqual(seen);
    await second.stop();
  }, 90_000);
});

describe('a database that refuses writes', () => {
  let t: TestServer;
  afterAll(async () => {
    await t?.close();
  });

  const refuseWrites = () =>
    t.server.ctx.db.query('ALTER TABLE doc_updates ADD CONSTRAINT folio_test_refuse CHECK (false) NOT VALID');
  const allowWrites = () => t.server.ctx.db.query('ALTER TABLE doc_updates DROP CONSTRAINT folio_test_refuse');

  it('neither applies nor broadcasts a client update; the sender is closed (1013), keeps it, and resyncs later', async () => {
    t = await startTestServer();
    const orgId = (await t.client.orgs.createOrganization({ title: 'Failing Org' })).data.id;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Failing' })).data.id;
    const a = clients.connect(t.url, spaceId, t.adminToken);
    const b = clients.connect(t.url, spaceId, t.adminToken);
    await Promise.all([synced(a), synced(b)]);
    a.text.insert(0, 'stored. ');
    await waitFor(() => b.text.toString() === 'stored. ');

    await refuseWrites();
    a.text.insert(a.text.length, 'not yet stored.');
    await waitFor(() => a.closes.some((c) => c.code === CloseCode.tryAgainLater), 10_000, 'the 1013 close');
    await sleep(200);
    expect(b.text.toString()).toBe('stored. ');
    expect(await t.server.ctx.hub.withDoc(spaceContentDoc(spaceId), (doc) => doc.getText('body').toString())).toBe(
      'stored. ',
    );
    expect(a.text.toString()).toBe('stored. not yet stored.');

    await allowWrites();
    // The stock client reconnects by itself (1013 is not a permanent close) and sends what the server lacks.
    await waitFor(() => b.text.toString() === 'stored. not yet stored.', 15_000, 'the resync');
  });

  it('rejects a server-side change and reloads the document without it', async () => {
    const orgId = (await t.client.orgs.createOrganization({ title: 'Failing REST Org' })).data.id;
    const spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Failing REST' })).data.id;
    const name = spaceContentDoc(spaceId);
    const a = clients.connect(t.url, spaceId, t.adminToken);
    await synced(a);
    await t.server.ctx.hub.change(name, (doc) => doc.getText('body').insert(0, 'kept'));
    await waitFor(() => a.text.toString() === 'kept');

    await refuseWrites();
    await expect(t.server.ctx.hub.change(name, (doc) => doc.getText('body').insert(0, 'lost '))).rejects.toBeInstanceOf(
      DocumentWriteError,
    );
    await allowWrites();
    expect(await t.server.ctx.hub.withDoc(name, (doc) => doc.getText('body').toString())).toBe('kept');
    // The connected client was told to resync (1013) and never saw the refused change.
    await waitFor(() => a.closes.some((c) => c.code === CloseCode.tryAgainLater), 10_000, 'the 1013 close');
    await synced(a);
    a.text.insert(a.text.length, '!');
    await waitFor(
      async () => (await t.server.ctx.hub.withDoc(name, (doc) => doc.getText('body').toString())) === 'kept!',
      10_000,
      'the later edit',
    );
    expect(a.text.toString()).toBe('kept!');
    const copy = new Y.Doc();
    Y.applyUpdate(copy, await t.server.ctx.hub.withDoc(name, (doc) => Y.encodeStateAsUpdate(doc)));
    expect(copy.getText('body').toString()).toBe('kept!');
  });
});
