import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../sync-server/config';
import { startServer } from '../../sync-server/server';
import { ROOT, childEnv, folio, run } from '../helpers/cli-process';

/**
 * The admin CLI, run for real as a child process (tsx sync-server/cli.ts)
 * against an on-disk PGlite data folder, then a server started on that same
 * folder. PGlite on disk admits one process at a time, so the CLI runs and
 * exits before the server opens the folder.
 */

async function getUser(
  url: string,
  token: string,
): Promise<{ status: number; body: { id?: string; displayName?: string } }> {
  const res = await fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { id?: string; displayName?: string } };
}

function serverConfig(dataDir: string) {
  return loadConfig([], { FOLIO_PORT: '0', FOLIO_DATA_DIR: dataDir, FOLIO_LOG_LEVEL: 'silent' });
}

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-cli-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('admin CLI', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir();
  });

  it('shows help and rejects bad usage with exit code 2', async () => {
    const help = await run([join(ROOT, 'bin', 'folio.mjs')], ['--help'], dir);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/user add --name NAME --email EMAIL/);
    expect(help.stdout).toMatch(/token revoke TOKEN_ID/);
    const sub = await folio(dir, 'token', 'create', '--help');
    expect(sub.code).toBe(0);
    expect(sub.stdout).toMatch(/Usage: .*token create --user ID\|EMAIL/);

    for (const args of [
      [],
      ['frob'],
      ['user'],
      ['user', 'add', '--name', 'X'],
      ['user', 'add', '--name', 'X', '--email', 'not-an-email'],
      ['user', 'list', '--bogus'],
      ['token', 'create'],
      ['token', 'revoke'],
      ['token', 'revoke', 'a', 'b'],
    ]) {
      const res = await folio(dir, ...args);
      expect(res.code, `folio ${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(/^folio: /);
    }
    // Usage errors are found before the database is opened.
    expect(existsSync(join(dir, 'pglite'))).toBe(false);
  }, 240_000);

  it('manages users and tokens, and a created token authenticates against the server', async () => {
    const add = await folio(dir, 'user', 'add', '--name', 'Jane Doe', '--email', 'Jane@X.test');
    expect(add.code, add.stderr).toBe(0);
    const janeId = add.stdout.trim();
    expect(janeId).toMatch(/^[a-zA-Z0-9]{20}$/);
    const dup = await folio(dir, 'user', 'add', '--name', 'Jane Again', '--email', 'jane@x.test');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/already exists/);
    const ops = await folio(dir, 'user', 'add', '--name', 'Ops', '--email', 'ops@x.test', '--admin');
    expect(ops.code, ops.stderr).toBe(0);

    const list = await folio(dir, 'user', 'list');
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+EMAIL\s+ADMIN$/);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${janeId}\\s+Jane Doe\\s+jane@x\\.test\\s+no$`)));
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^${ops.stdout.trim()}\\s+Ops\\s+ops@x\\.test\\s+yes$`)),
    );

    const created = await folio(dir, 'token', 'create', '--user', 'JANE@x.test', '--label', 'laptop');
    expect(created.code, created.stderr).toBe(0);
    const token = created.stdout.trim();
    expect(token).toMatch(/^folio_[A-Za-z0-9_-]{40,}$/);
    const second = await folio(dir, 'token', 'create', '--user', janeId);
    expect(second.code).toBe(0);
    const revokedToken = second.stdout.trim();
    expect((await folio(dir, 'token', 'create', '--user', 'nobody@x.test')).code).toBe(1);
    expect((await folio(dir, 'token', 'list', '--user', 'noSuchUser')).code).toBe(1);

    const tokens = await folio(dir, 'token', 'list', '--user', janeId);
    expect(tokens.code).toBe(0);
    expect(tokens.stdout).not.toContain(token);
    expect(tokens.stdout).not.toContain(revokedToken);
    const rows = tokens.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(/\s{2,}/));
    expect(rows.map((r) => r[1])).toEqual(['laptop', 'cli']);
    expect(rows[0]![2]).toMatch(/^\d{4}-\d\d-\d\dT/);
    const revoke = await folio(dir, 'token', 'revoke', rows[1]![0]!);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect((await folio(dir, 'token', 'revoke', rows[1]![0]!)).code).toBe(1);

    // The CLI has exited; the server may now open the same folder.
    const server = await startServer(serverConfig(dir));
    try {
      const me = await getUser(server.url, token);
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: janeId, displayName: 'Jane Doe' });
      expect((await getUser(server.url, revokedToken)).status).toBe(401);
      // An instance admin already exists (made with --admin), so no bootstrap token is generated.
      expect(server.admin.created).toBe(false);
      expect(server.admin.token).toBeUndefined();
      expect(existsSync(join(dir, 'admin-token'))).toBe(false);
    } finally {
      await server.close();
    }
  }, 240_000);

  it('writes a 0600 admin-token on first start, and neither regenerates nor prints it later', async () => {
    const fresh = await tempDir();
    const first = await startServer(serverConfig(fresh));
    let token: string;
    try {
      expect(first.admin.created).toBe(true);
      expect(first.admin.tokenFile).toBe(join(fresh, 'admin-token'));
      token = (await readFile(join(fresh, 'admin-token'), 'utf8')).trim();
      expect(token).toBe(first.admin.token);
      expect((await stat(join(fresh, 'admin-token'))).mode & 0o777).toBe(0o600);
      const me = await getUser(first.url, token);
      expect(me.status).toBe(200);
      expect(me.body.displayName).toBe('Administrator');
    } finally {
      await first.close();
    }

    // A second start, as `npm start` runs it: no new token, nothing secret printed.
    const second = await startMain(fresh);
    expect(second).toMatch(/listening on/);
    // Where the writers' web app is, so a new admin knows where to sign in.
    expect(second).toMatch(/Web app: http:\/\/127\.0\.0\.1:\d+\/app\//);
    expect(second).not.toContain(token);
    expect(second).not.toMatch(/Instance admin created/);
    expect((await readFile(join(fresh, 'admin-token'), 'utf8')).trim()).toBe(token);

    // The token from the file still works, and the CLI sees the one admin.
    const list = await folio(fresh, 'user', 'list');
    expect(list.stdout.trim().split('\n')).toHaveLength(2);
    const third = await startServer(serverConfig(fresh));
    try {
      expect(third.admin.created).toBe(false);
      expect(third.admin.token).toBeUndefined();
      expect((await getUser(third.url, token)).status).toBe(200);
    } finally {
      await third.close();
    }
  }, 240_000);
});

/** Runs `node --import tsx sync-server/main.ts` until it has printed its banner, stops it with SIGTERM, checks it exits 0, and returns its stdout. */
function startMain(dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // As `npm start` runs it: tsx as a loader in the server's own process, so SIGTERM reaches the server directly.
    const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], {
      cwd: ROOT,
      env: childEnv(dataDir),
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      // The banner ends with the "Authorization: Bearer" example line.
      if (/Send it as/.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      // A clean SIGTERM shutdown exits 0 after saying so.
      if (/Send it as/.test(stdout) && /SIGTERM: shutting down/.test(stdout) && code === 0) resolve(stdout);
      else
        reject(
          new Error(`main.ts exited (${code}) without a banner and a clean SIGTERM shutdown: ${stdout}\n${stderr}`),
        );
    });
  });
}
