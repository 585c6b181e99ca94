import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobError, JobRunner, type JobKind } from '../../sync-server/jobs/runner';
import type { Db } from '../../sync-server/store/db';
import { claimJob, getJob } from '../../sync-server/store/jobs';
import { startTestServer, testBackend, type TestServer } from '../helpers/server';

/**
 * The job runner on the real database of a test server (PGlite, or PostgreSQL in the api-postgres
 * project). Each test uses kinds of its own, which the server's own runner does not know, so only
 * the runners built here claim them. "Another process" is another runner (on PostgreSQL, with a
 * connection pool of its own).
 */

let t: TestServer;
let db: Db;
const log = pino({ level: 'silent' });
const extraDbs: Db[] = [];

beforeAll(async () => {
  t = await startTestServer();
  db = t.server.ctx.db;
});
afterAll(async () => {
  for (const other of extraDbs) await other.close();
  await t?.close();
});

let kindCounter = 0;
const uniqueKind = (name: string) => `test-${name}-${++kindCounter}`;

function runner(options: ConstructorParameters<typeof JobRunner>[1] = {}, database: Db = db) {
  return new JobRunner(
    { db: database, clock: t.clock, log },
    { pollMs: 20, leaseMs: 600, backoffMs: 1000, ...options },
  );
}

/** A second connection to the same database: another process as far as the database can tell. */
async function otherProcessDb(): Promise<Db> {
  if (testBackend() === 'pglite') return db; // one process owns an embedded database
  const { openPostgres } = await import('../../sync-server/store/postgres');
  const other = await openPostgres(t.server.ctx.config.databaseUrl!);
  extraDbs.push(other);
  return other;
}

const until = async (check: () => Promise<boolean>, what: string, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('job runner', () => {
  it('runs a job once, records its progress and result', async () => {
    const kind = uniqueKind('ok');
    const r = runner();
    r.register<{ n: number }, { doubled: number }>({
      kind,
      async run({ job, progress }) {
        await progress({ step: 1, of: 1 });
        return { doubled: job.payload.n * 2 };
      },
    });
    const queued = await r.enqueue({ kind, payload: { n: 21 }, organizationId: 'org1' });
    expect(queued.state).toBe('queued');
    await r.drain();
    const done = await r.get(queued.id);
    expect(done).toMatchObject({
      state: 'succeeded',
      attempts: 1,
      result: { doubled: 42 },
      progress: { step: 1, of: 1 },
    });
    expect(done!.finished_at).toBeInstanceOf(Date);
  });

  it('retries a failure that a retry can help, after a backoff, and stops at the last attempt', async () => {
    const kind = uniqueKind('flaky');
    const r = runner();
    let calls = 0;
    r.register({
      kind,
      maxAttempts: 3,
      async run() {
        calls++;
        throw new JobError('FETCH_ERROR', `attempt ${calls} failed`, true);
      },
    });
    const job = await r.enqueue({ kind, payload: {} });
    await r.drain();
    let row = (await r.get(job.id))!;
    expect(row).toMatchObject({ state: 'queued', attempts: 1, error_code: 'FETCH_ERROR' });
    // Backoff: not before about a second (the base), jittered by at most a quarter.
    const wait = row.run_after.getTime() - t.clock.now().getTime();
    expect(wait).toBeGreaterThan(600);
    expect(wait).toBeLessThanOrEqual(1250);
    await r.drain();
    expect(calls).toBe(1); // not due yet
    t.clock.advance(1300);
    await r.drain();
    row = (await r.get(job.id))!;
    expect(row).toMatchObject({ state: 'queued', attempts: 2 });
    // The second delay doubles.
    expect(row.run_after.getTime() - t.clock.now().getTime()).toBeGreaterThan(1400);
    t.clock.advance(2600);
    await r.drain();
    row = (await r.get(job.id))!;
    expect(row).toMatchObject({
      state: 'failed',
      attempts: 3,
      error_code: 'FETCH_ERROR',
      error_message: 'attempt 3 failed',
    });
    expect(calls).toBe(3);
  });

  it('fails at once on an error a retry cannot help', async () => {
    const kind = uniqueKind('invalid');
    const r = runner();
    let calls = 0;
    r.register({
      kind,
      async run() {
        calls++;
        throw new JobError('PARSE_ERROR', 'not a spec');
      },
    });
    const job = await r.enqueue({ kind, payload: {} });
    await r.drain();
    expect(await r.get(job.id)).toMatchObject({ state: 'failed', attempts: 1, error_code: 'PARSE_ERROR' });
    expect(calls).toBe(1);
    // A bug (any other error) is not retried either, and says what it was.
    const kind2 = uniqueKind('bug');
    r.register({
      kind: kind2,
      async run() {
        throw new TypeError('x is undefined');
      },
    });
    const bug = await r.enqueue({ kind: kind2, payload: {} });
    await r.drain();
    expect(await r.get(bug.id)).toMatchObject({
      state: 'failed',
      error_code: 'INTERNAL',
      error_message: 'x is undefined',
    });
  });

  it('cancels a queued job at once, and a running one through its signal', async () => {
    const kind = uniqueKind('cancel');
    const r = runner({ concurrency: 1 });
    let sawAbort = false;
    r.register({
      kind,
      run: ({ signal }) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(new Error('aborted'));
          });
        }),
    });
    const waiting = await r.enqueue({ kind, payload: {}, runAfter: new Date(t.clock.now().getTime() + 60_000) });
    expect(await r.cancel(waiting.id)).toMatchObject({ state: 'cancelled', error_code: 'CANCELLED' });
    const job = await r.enqueue({ kind, payload: {} });
    await r.start();
    try {
      await until(async () => (await r.get(job.id))?.state === 'running', 'the job to start');
      // Cancelled from "another process": seen at the next lease renewal.
      const other = runner({}, await otherProcessDb());
      await other.cancel(job.id);
      await until(async () => (await r.get(job.id))?.state === 'cancelled', 'the job to stop');
      expect(sawAbort).toBe(true);
    } finally {
      await r.stop();
    }
  });

  it('runs jobs of one subject one at a time, oldest first, and other subjects alongside', async () => {
    const kind = uniqueKind('ordered');
    const r = runner({ concurrency: 4 });
    const log: string[] = [];
    let freeStarted!: () => void;
    const free = new Promise<void>((resolve) => (freeStarted = resolve));
    r.register<{ name: string }, null>({
      kind,
      async run({ job }) {
        log.push(`start ${job.payload.name}`);
        if (job.payload.name === 'free') freeStarted();
        // The first job of spec:1 ends only once the job of spec:2 has started: they run together.
        else if (job.payload.name === 'a') await free;
        await new Promise((res) => setTimeout(res, 10));
        log.push(`end ${job.payload.name}`);
        return null;
      },
    });
    for (const name of ['a', 'b', 'c']) await r.enqueue({ kind, payload: { name }, subject: 'spec:1' });
    const other = await r.enqueue({ kind, payload: { name: 'free' }, subject: 'spec:2' });
    await r.drain();
    const ofSubject = log.filter((l) => !l.endsWith('free'));
    expect(ofSubject).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(log.indexOf('start free')).toBeLessThan(log.indexOf('end a'));
    expect((await r.get(other.id))!.state).toBe('succeeded');
  });

  it('two processes never run one job twice', async () => {
    const kind = uniqueKind('race');
    const runs = new Map<string, number>();
    const handler: JobKind = {
      kind,
      async run({ job }) {
        runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
        await new Promise((res) => setTimeout(res, 2));
        return null;
      },
    };
    const a = runner({ concurrency: 3 });
    const b = runner({ concurrency: 3 }, await otherProcessDb());
    a.register(handler);
    b.register(handler);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push((await a.enqueue({ kind, payload: { i } })).id);
    await Promise.all([a.drain(), b.drain()]);
    expect(ids.filter((id) => runs.get(id) !== 1)).toEqual([]);
    for (const id of ids) expect((await a.get(id))!.state).toBe('succeeded');
  });

  it('a job whose process died (lease ran out) runs again, or fails once out of attempts', async () => {
    const kind = uniqueKind('abandoned');
    const r = runner();
    r.register({ kind, maxAttempts: 2, run: async () => 'done' });
    // A process claims it and dies: nobody renews the lease.
    const job = await r.enqueue({ kind, payload: {}, runAfter: new Date(t.clock.now().getTime() + 60_000) });
    t.clock.advance(61_000);
    const now = t.clock.now();
    const claimed = await claimJob(db, [kind], 'dead-process', now, new Date(now.getTime() + 5000));
    expect(claimed?.id).toBe(job.id);
    await r.drain();
    expect((await r.get(job.id))!.state).toBe('running'); // the lease still holds
    t.clock.advance(6000);
    await r.drain();
    expect(await r.get(job.id)).toMatchObject({ state: 'succeeded', attempts: 2, result: 'done' });
    // Out of attempts: failed, with the reason.
    const last = await r.enqueue({
      kind,
      payload: {},
      maxAttempts: 1,
      runAfter: new Date(t.clock.now().getTime() + 60_000),
    });
    t.clock.advance(61_000);
    const later = t.clock.now();
    await claimJob(db, [kind], 'dead-process', later, new Date(later.getTime() + 5000));
    t.clock.advance(6000);
    await r.drain();
    expect(await r.get(last.id)).toMatchObject({ state: 'failed', error_code: 'INTERRUPTED' });
  });

  it('stopping the server queues running jobs again without spending an attempt', async () => {
    const kind = uniqueKind('shutdown');
    const r = runner();
    r.register({
      kind,
      run: ({ signal }) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopped')))),
    });
    const job = await r.enqueue({ kind, payload: {} });
    await r.start();
    await until(async () => (await r.get(job.id))?.state === 'running', 'the job to start');
    await r.stop();
    expect(await r.get(job.id)).toMatchObject({ state: 'queued', attempts: 0, error_code: 'SHUTDOWN' });
    const next = runner();
    next.register({ kind, run: async () => 'resumed' });
    await next.drain();
    expect(await next.get(job.id)).toMatchObject({ state: 'succeeded', attempts: 1, result: 'resumed' });
  });

  it('an attempt that runs too long is aborted and retried', async () => {
    const kind = uniqueKind('slow');
    const r = runner();
    let calls = 0;
    r.register({
      kind,
      timeoutMs: 50,
      maxAttempts: 2,
      run: ({ signal }) => {
        calls++;
        if (calls === 2) return Promise.resolve('fast enough');
        return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    });
    const job = await r.enqueue({ kind, payload: {} });
    await r.drain();
    expect(await r.get(job.id)).toMatchObject({ state: 'queued', error_code: 'TIMEOUT' });
    t.clock.advance(2000);
    await r.drain();
    expect(await r.get(job.id)).toMatchObject({ state: 'succeeded', result: 'fast enough', attempts: 2 });
  });

  it('on the embedded database, a job left running by the previous process is recovered at start', async () => {
    if (testBackend() !== 'pglite') return;
    const kind = uniqueKind('restart');
    const r = runner({ leaseMs: 60 * 60_000 });
    r.register({ kind, run: async () => 'after restart' });
    const job = await r.enqueue({ kind, payload: {}, runAfter: new Date(t.clock.now().getTime() + 60_000) });
    t.clock.advance(61_000);
    const now = t.clock.now();
    await claimJob(db, [kind], 'previous-process', now, new Date(now.getTime() + 60 * 60_000));
    await r.start();
    try {
      await until(async () => (await getJob(db, job.id))?.state === 'succeeded', 'the recovered job to run');
    } finally {
      await r.stop();
    }
  });
});
