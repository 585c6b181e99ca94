import { expect, it } from 'vitest';
import { startHeldServer, type HeldServer } from '../helpers/held-http';
import { restartSuite } from '../helpers/restart-suite';
import type { ServerProcess } from '../helpers/server-process';
import { crash } from '../helpers/process-crash';
import { waitFor } from '../helpers/wait';

/**
 * A job killed with its server (kill -9) on PGlite: one process owns the data folder, so the
 * runner queues every job left "running" again when the server starts on it (jobs/runner.ts
 * start). The job is a real one: an OpenAPI spec whose source URL is a local server holding its
 * answer, so the job is mid-fetch when the server dies. Started again on the same folder, the spec
 * ends complete with a version; killed on every attempt, it ends failed with a clear code, never
 * stuck in `progress`.
 */

const TOKEN = 'jobs-restart-admin-token-0123456789';
let held: HeldServer;
let server: ServerProcess | undefined;

const suite = restartSuite({
  token: TOKEN,
  folder: 'folio-jobs-restart-',
  peer: async () => (held = await startHeldServer()),
});
const { api } = suite;

interface Spec {
  processingState: string;
  lastVersion?: string;
  lastProcessErrorCode?: string;
  lastProcessedErrors?: { message: string }[];
}

/** A fresh folder, an org and a spec whose source (`/<name>` on the held server) is being fetched. */
async function specMidFetch(name: string): Promise<{ dataDir: string; orgId: string }> {
  const dataDir = await suite.dataDir();
  server = await suite.start(dataDir);
  const org = await api(server, 'POST', '/orgs', { title: 'Jobs restart' });
  expect(org.status).toBe(201);
  const orgId = org.body.id as string;
  const created = await api(server, 'POST', `/orgs/${orgId}/openapi`, {
    slug: name,
    source: { url: `${held.url}/${name}` },
  });
  expect(created.status).toBe(201);
  await waitForFetch(name, 1);
  return { dataDir, orgId };
}

/** Until the spec's job has fetched `n` times and the n-th fetch is held (the job is running). */
const waitForFetch = (name: string, n: number) =>
  waitFor(() => held.hits(`/${name}`) === n && held.waiting(`/${name}`) === 1, 20_000, `fetch ${n} of ${name}`, 50);

const getSpec = async (s: ServerProcess, orgId: string, slug: string) => {
  const res = await api(s, 'GET', `/orgs/${orgId}/openapi/${slug}`);
  expect(res.status).toBe(200);
  return res.body as unknown as Spec;
};

it('runs a job killed mid-fetch again after the restart: the spec ends complete with a version', async () => {
  const { dataDir, orgId } = await specMidFetch('killed-once');
  expect((await getSpec(server!, orgId, 'killed-once')).processingState).toBe('progress');

  await crash(server!);
  server = await suite.start(dataDir);
  // Queued again at start and running: the restarted job fetches a second time.
  await waitForFetch('killed-once', 2);
  expect((await getSpec(server, orgId, 'killed-once')).processingState).toBe('progress');
  held.release('/killed-once');

  const done = (await waitFor(
    async () => {
      const spec = await getSpec(server!, orgId, 'killed-once');
      return spec.processingState === 'complete' ? spec : undefined;
    },
    20_000,
    'the spec to be processed',
    100,
  ))!;
  expect(done.lastVersion).toEqual(expect.any(String));
  expect(done.lastProcessErrorCode).toBeUndefined();
  const versions = await api(server, 'GET', `/orgs/${orgId}/openapi/killed-once/versions`);
  expect(versions.status).toBe(200);
  expect((versions.body.items as unknown[]).length).toBe(1);
  expect(held.hits('/killed-once')).toBe(2);
}, 60_000);

it('fails the job cleanly when every attempt was killed: complete with an error, not stuck in progress', async () => {
  const { dataDir, orgId } = await specMidFetch('killed-always');
  // The spec job's default is 3 attempts (openapi-specs/process.ts): kill each one mid-fetch.
  for (let attempt = 1; attempt <= 3; attempt++) {
    await waitForFetch('killed-always', attempt);
    await crash(server!);
    server = await suite.start(dataDir);
  }
  const spec = await getSpec(server!, orgId, 'killed-always');
  expect(spec.processingState).toBe('complete');
  expect(spec.lastVersion).toBeUndefined();
  expect(spec.lastProcessErrorCode).toBe('FETCH_ERROR');
  expect(spec.lastProcessedErrors?.[0]?.message).toMatch(/stopped before it finished/);
  // Never run a fourth time.
  await new Promise((r) => setTimeout(r, 1500));
  expect(held.hits('/killed-always')).toBe(3);
  expect((await getSpec(server!, orgId, 'killed-always')).processingState).toBe('complete');
}, 60_000);
