import { spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../sync-server/config';
import { startServer } from '../../sync-server/server';
import { principalForToken } from '../../sync-server/identity/principal';
import { createUser, issueToken } from '../../sync-server/identity/users';
import { withReadCache, type CachingDb } from '../../sync-server/store/caching-db';
import { migrate } from '../../sync-server/store/migrate';
import { openPglite } from '../../sync-server/store/pglite';

/**
 * How API tokens are kept: only an HMAC-SHA256 digest under a per-installation
 * key (a leaked table lets nobody test guesses of a weak FOLIO_ADMIN_TOKEN),
 * legacy plain SHA-256 rows still accepted and rewritten on first use, and the
 * FOLIO_ADMIN_TOKEN token following its setting: a new value revokes the old.
 */

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

let db: CachingDb;
beforeAll(async () => {
  db = withReadCache(await openPglite(undefined));
  await migrate(db);
});
afterAll(async () => {
  await db?.close();
});

async function tokenKey(): Promise<Buffer> {
  const [row] = await db.query<{ value: string }>("SELECT value FROM server_secrets WHERE name = 'token-digest'");
  return Buffer.from(row!.value, 'base64');
}

describe('stored token digests', () => {
  it('stores a keyed digest, never the token nor its plain SHA-256', async () => {
    const userId = await createUser(db, { displayName: 'Kay', email: 'kay@x.test' });
    const token = await issueToken(db, userId, 'laptop');
    const rows = await db.query<Record<string, unknown>>('SELECT * FROM api_tokens WHERE user_id = $1', [userId]);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(sha256(token));
    expect(rows[0]!.token_hash).toBe(
      createHmac('sha256', await tokenKey())
        .update(token)
        .digest('hex'),
    );
    expect((await principalForToken(db, token))?.userId).toBe(userId);
    expect(await principalForToken(db, token + 'x')).toBeUndefined();
  });

  it('accepts a legacy SHA-256 row and rewrites it with the keyed digest on first use', async () => {
    const userId = await createUser(db, { displayName: 'Old Timer', email: 'old@x.test' });
    const token = 'folio_legacy-token-from-before-keyed-digests';
    // What rows written before migration 0011 look like.
    await db.query(
      "INSERT INTO api_tokens (id, user_id, token_hash, label, legacy_sha256) VALUES ('legacyrow', $1, $2, 'cli', true)",
      [userId, sha256(token)],
    );
    expect((await principalForToken(db, token))?.userId).toBe(userId);
    const [row] = await db.query<{ token_hash: string; legacy_sha256: boolean }>(
      "SELECT token_hash, legacy_sha256 FROM api_tokens WHERE id = 'legacyrow'",
    );
    expect(row).toEqual({
      token_hash: createHmac('sha256', await tokenKey())
        .update(token)
        .digest('hex'),
      legacy_sha256: false,
    });
    db.cache.invalidate();
    expect((await principalForToken(db, token))?.userId).toBe(userId);
    // A keyed row is never matched by a plain SHA-256 (a copy of the old digest is worth nothing).
    expect(await principalForToken(db, sha256(token))).toBeUndefined();
  });
});

describe('FOLIO_ADMIN_TOKEN', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-admin-token-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const start = (adminToken?: string) =>
    startServer(
      loadConfig([], {
        FOLIO_PORT: '0',
        FOLIO_DATA_DIR: dir,
        FOLIO_LOG_LEVEL: 'silent',
        ...(adminToken ? { FOLIO_ADMIN_TOKEN: adminToken } : {}),
      }),
    );
  const status = async (url: string, token: string) =>
    (await fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status;

  it('revokes the previous value when the setting changes, and when it is removed', async () => {
    const first = 'first-admin-token-0123456789';
    const second = 'second-admin-token-0123456789';
    let server = await start(first);
    try {
      expect(await status(server.url, first)).toBe(200);
    } finally {
      await server.close();
    }
    server = await start(second);
    try {
      expect(await status(server.url, second)).toBe(200);
      expect(await status(server.url, first)).toBe(401);
      const labelled = await server.ctx.db.query("SELECT id FROM api_tokens WHERE label = 'FOLIO_ADMIN_TOKEN'");
      expect(labelled).toHaveLength(1);
    } finally {
      await server.close();
    }
    // The same value again keeps its token; removing the setting revokes it.
    server = await start(second);
    try {
      expect(await status(server.url, second)).toBe(200);
    } finally {
      await server.close();
    }
    server = await start(undefined);
    try {
      expect(await status(server.url, second)).toBe(401);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('is a label the CLI refuses to hand out', async () => {
    const args = ['token', 'create', '--user', 'admin@localhost', '--label', 'FOLIO_ADMIN_TOKEN'];
    const child = spawn(
      process.execPath,
      [createRequire(import.meta.url).resolve('tsx/cli'), 'sync-server/cli.ts', ...args],
      {
        cwd: join(import.meta.dirname, '..', '..'),
        // Usage is checked before any setting is read or the database opened.
        env: { ...process.env, FOLIO_DATA_DIR: dir },
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(/label FOLIO_ADMIN_TOKEN is reserved/);
  }, 60_000);
});
