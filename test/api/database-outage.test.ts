import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../sync-server/config';
import { startServer, type RunningServer } from '../../sync-server/server';
import { freshPostgresDatabase } from '../helpers/postgres';
import { testBackend, testServerEnv, TEST_ADMIN_TOKEN } from '../helpers/server';
import { expectError, raw } from '../helpers/api';
import { TcpProxy } from '../helpers/tcp-proxy';

const pgOnly = testBackend() === 'postgres' ? describe : describe.skip;

pgOnly('PostgreSQL outage', () => {
  let relay: TcpProxy;
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let server: RunningServer;
  let dataDir: string;
  const t = {
    get url() {
      return server.url;
    },
  };

  beforeAll(async () => {
    db = await freshPostgresDatabase('folio_outage');
    const real = new URL(db.url);
    relay = await TcpProxy.start([{ host: real.hostname, port: Number(real.port || 5432) }]);
    const viaRelay = new URL(db.url);
    viaRelay.port = String(relay.port);
    dataDir = await mkdtemp(join(tmpdir(), 'folio-outage-'));
    server = await startServer(loadConfig([], { ...testServerEnv(dataDir), FOLIO_DATABASE_URL: viaRelay.toString() }), {
      inMemory: true,
    });
  });
  afterAll(async () => {
    relay?.restore();
    await server?.close();
    await relay?.close();
    await db?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers writes with a clear 503 while the database is away, and works again when it is back', async () => {
    const create = () => raw(t, 'POST', '/v1/orgs', { token: TEST_ADMIN_TOKEN, body: { title: 'During outage' } });
    expect((await create()).status).toBe(201);
    relay.cut();
    // A clear answer, not a hang: the pool gives up on a refused connection at once (a hang would hit the test timeout).
    const during = await create();
    expectError(during, 503);
    expect(during.headers.get('retry-after')).toBe('5');
    expect((await raw(t, 'GET', '/readyz')).status).toBe(503);
    relay.restore();
    expect((await create()).status).toBe(201);
    expect((await raw(t, 'GET', '/readyz')).status).toBe(200);
  });
});
