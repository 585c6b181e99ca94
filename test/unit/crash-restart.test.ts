import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureServerBuilt } from '../../scripts/build-server.mjs';
import { childEnv, ROOT } from '../helpers/cli-process';
import { freePort, npmStartEnv, START_ARGS, startServerProcess } from '../helpers/server-process';
import { waitFor } from '../helpers/wait';

/**
 * A restart after a crash starts. The compiled server (as `npm start` runs
 * it) is killed with SIGKILL and started again at once on the same PGlite
 * folder, ten times in a row. The killed process is left a zombie, as in a
 * container without an init that reaps it: its pid is still in the process
 * table and in the lock file, and must not block the start. Every edit the
 * API acknowledged before a kill is there after it.
 */

const TOKEN = 'crash-restart-admin-token-0123456789';
let dataDir: string;
const holders: ChildProcess[] = [];
/** The servers' pids: the last one still runs at the end (killing its holder does not stop it). */
const servers: number[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'folio-crash-'));
  await ensureServerBuilt();
}, 120_000);
afterAll(async () => {
  for (const pid of servers)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already (killed by the test, and reaped with its holder)
    }
  for (const h of holders) h.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * Starts the compiled server under a parent that never reaps it (`sh` replaced by `sleep`, which never
 * waits): killed, it stays a zombie while the parent lives. Resolves with its pid and URL once it answers.
 */
async function startUnreaped(): Promise<{ pid: number; url: string }> {
  const port = await freePort();
  const args = START_ARGS.compiled.map((a) => `'${a}'`).join(' ');
  const holder = spawn('sh', ['-c', `'${process.execPath}' ${args} >/dev/null 2>&1 & echo $!; exec sleep 600`], {
    cwd: ROOT,
    env: { ...childEnv(dataDir), ...npmStartEnv(), FOLIO_PORT: String(port), FOLIO_ADMIN_TOKEN: TOKEN },
  });
  holders.push(holder);
  let out = '';
  holder.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const pid = Number(await waitFor(() => /^(\d+)\n/.exec(out)?.[1], 10_000, 'the server pid'));
  servers.push(pid);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    () =>
      fetch(`${url}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      ),
    60_000,
    'the server to answer',
  );
  return { pid, url };
}

const api = (url: string, method: string, path: string, body?: unknown) =>
  fetch(`${url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

const processState = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
};

it('starts again at once after kill -9, ten times, with every acknowledged edit kept', async () => {
  const first = await startUnreaped();
  const orgRes = await api(first.url, 'POST', '/orgs', { title: 'Crash Org' });
  expect(orgRes.status).toBe(201);
  const orgId = ((await orgRes.json()) as { id: string }).id;
  const acknowledged: string[] = [];
  let server = first;
  for (let round = 1; round <= 10; round++) {
    const res = await api(server.url, 'POST', `/orgs/${orgId}/spaces`, { title: `Written before crash ${round}` });
    expect(res.status, `round ${round}`).toBe(201);
    acknowledged.push(((await res.json()) as { id: string }).id);

    process.kill(server.pid, 'SIGKILL');
    await waitFor(() => processState(server.pid) === 'Z', 10_000, 'the killed server to be a zombie');
    server = await startUnreaped();

    const listed = await api(server.url, 'GET', `/orgs/${orgId}/spaces?limit=100`);
    expect(listed.status).toBe(200);
    const ids = ((await listed.json()) as { items: { id: string }[] }).items.map((s) => s.id);
    expect(ids, `round ${round}`).toEqual(expect.arrayContaining(acknowledged));
  }
  // A second live process on the same folder is still refused, naming the one that holds it.
  const second = await startServerProcess('compiled', dataDir, 60_000).then(
    (p) => ({ started: true as const, p }),
    (err: Error) => ({ started: false as const, message: err.message }),
  );
  if (second.started) await second.p.stop();
  expect(second.started).toBe(false);
  if (!second.started)
    expect(second.message).toMatch(new RegExp(`in use by another Folio process \\(pid ${server.pid}\\)`));
}, 600_000);
