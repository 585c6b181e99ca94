import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebApp } from '../../sync-server/web-app';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The app icon: browsers ask every server root for /favicon.ico, so it must
 * not 404 (it did, and every tab logged the error) — whether or not the web
 * app was built. And a server without a build says how to get one.
 */
const ICO_MAGIC = [0, 0, 1, 0]; // ICONDIR: reserved 0, type 1 (icon)

async function expectIcon(res: Response): Promise<void> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/x-icon');
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect([...bytes.slice(0, 4)]).toEqual(ICO_MAGIC);
}

describe('a running server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('answers /favicon.ico at the root with an icon, without a token', async () => {
    await expectIcon(await fetch(`${t.url}/favicon.ico`));
  });

  it('answers /app/favicon.ico too (built or not)', async () => {
    await expectIcon(await fetch(`${t.url}/app/favicon.ico`));
  });
});

describe('a server whose web app is not built', () => {
  let app: FastifyInstance;
  let empty: string;
  beforeAll(async () => {
    empty = await mkdtemp(join(tmpdir(), 'folio-no-web-app-'));
    app = Fastify();
    await registerWebApp(app, empty);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await rm(empty, { recursive: true, force: true });
  });

  it('still serves the icon from the source tree', async () => {
    for (const url of ['/favicon.ico', '/app/favicon.ico']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('image/x-icon');
      expect([...res.rawPayload.subarray(0, 4)]).toEqual(ICO_MAGIC);
    }
  });

  it('answers /app/ with 503 in the GitBook error shape, naming the command that builds it', async () => {
    const res = await app.inject({ method: 'GET', url: '/app/' });
    expect(res.statusCode).toBe(503);
    const body = res.json() as { error: { code: number; message: string } };
    expect(body.error.code).toBe(503);
    expect(body.error.message).toMatch(/npm start/);
    expect(body.error.message).toMatch(/npm run build/);
  });
});
