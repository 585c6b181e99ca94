import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { answerProblems, fuzzServer, formatReport, type FuzzReport } from '../helpers/openapi-fuzz-run';
import { StateProbe } from '../helpers/openapi-fuzz-state';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Fuzzes every operation of `/v1/openapi.json` with generated valid and
 * invalid requests (helpers/openapi-fuzz-*.ts), as the instance admin against
 * a fixture organization with real resources: never a 5xx, never a hang,
 * every 4xx in GitBook's error shape, no state change from a rejected write.
 * Fixed seed and a bounded count here; `npm run bench -- fuzz` runs longer
 * (FUZZ_SEED, FUZZ_RUNS). A failure prints every offending request as a
 * reproducer.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_613);
/** Requests per operation: ~140 operations x 30 = ~4,000 requests. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);

let t: TestServer;
beforeAll(async () => {
  // Rate limits off: thousands of requests from one token in a minute are the point here, not abuse.
  t = await startTestServer({
    FOLIO_RATE_LIMIT_WRITES: '0',
    FOLIO_RATE_LIMIT_READS: '0',
    FOLIO_RATE_LIMIT_ANONYMOUS: '0',
    FOLIO_RATE_LIMIT_AUTH_FAILURES: '0',
  });
});
afterAll(async () => {
  await t?.close();
});

describe('the fuzz checks themselves', () => {
  it('flag a 5xx, an error body outside the shape and one that leaks internals', () => {
    const answer = (status: number, body: unknown) => ({ status, headers: {}, body: JSON.stringify(body) });
    expect(answerProblems(answer(404, { error: { code: 404, message: 'Space not found' } }))).toEqual([]);
    expect(answerProblems(answer(500, { error: { code: 500, message: 'Internal server error' } }))).toHaveLength(1);
    // Fastify's own shape, a code that is not the status, an empty message, extra keys, no JSON.
    expect(answerProblems(answer(400, { statusCode: 400, error: 'Bad Request', message: 'x' }))).toHaveLength(1);
    expect(answerProblems(answer(400, { error: { code: 404, message: 'x' } }))).toHaveLength(1);
    expect(answerProblems(answer(400, { error: { code: 400, message: '' } }))).toHaveLength(1);
    expect(answerProblems(answer(400, { error: { code: 400, message: 'x' }, stack: 'y' }))).toHaveLength(1);
    expect(answerProblems({ status: 431, headers: {}, body: '' })).toHaveLength(1);
    expect(answerProblems(answer(400, { error: { code: 400, message: 'at f (/work/x.ts:1:2)' } }))).toHaveLength(1);
  });

  it('see a change in a table and in a document', async () => {
    const probe = await StateProbe.create(t.server.ctx.db, t.server.ctx.hub);
    try {
      const org = (await t.client.orgs.createOrganization({ title: 'Probe Org' })).data.id;
      const space = (await t.client.orgs.createSpace(org, { title: 'Probe' })).data.id;
      const before = await probe.snapshot();
      expect(probe.changes(before, await probe.snapshot())).toEqual([]);
      await t.client.orgs.updateOrganizationById(org, { title: 'Renamed' });
      await t.server.ctx.hub.change(
        spaceContentDoc(space),
        (doc) => void new ContentDoc(doc).createPage({ title: 'P' }),
      );
      expect(probe.changes(before, await probe.snapshot())).toEqual([
        'table organizations',
        `document ${spaceContentDoc(space)}`,
      ]);
    } finally {
      probe.close();
    }
  });
});

describe('fuzzing every operation of the OpenAPI document', () => {
  it('never answers 5xx, always answers, refuses in the error shape and changes nothing when it refuses', async () => {
    const report: FuzzReport = await fuzzServer(t.server, t.adminToken, { seed: SEED, runs: RUNS, timeoutMs: 10_000 });
    expect(report.operations).toBeGreaterThanOrEqual(130);
    expect(report.requests).toBe(report.operations * RUNS);
    // The fixture works: a good share of requests got past validation and lookups.
    expect(report.byClass['2xx'] ?? 0).toBeGreaterThan(report.requests / 5);
    expect(report.failures.length, formatReport(report, SEED)).toBe(0);
  });
});
