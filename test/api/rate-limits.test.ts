import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, newUser, raw, type RawResponse } from '../helpers/api';
import { upgradeStatus } from '../helpers/raw-sockets';
import { syncUrl } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

/**
 * Rate limits (docs/configuration.md "Rate limits"), with low limits set through the
 * settings: failed authentications per client address (REST and WebSocket
 * upgrades share one budget), writes per token, requests without a token per
 * address; every refusal a 429 in the error shape with `Retry-After`.
 *
 * Server `t` trusts X-Forwarded-For from 127.0.0.1 (FOLIO_TRUST_PROXY), so
 * each test plays its own client addresses; server `short` trusts no proxy
 * and has a 1 s window.
 */

const WINDOW_S = 60;
const FAILURES = 5;
const WRITES = 3;
const ANONYMOUS = 4;

let t: TestServer;
let short: TestServer;
let spaceId: string;
beforeAll(async () => {
  t = await startTestServer({
    FOLIO_TRUST_PROXY: 'loopback',
    FOLIO_RATE_LIMIT_WINDOW_S: String(WINDOW_S),
    FOLIO_RATE_LIMIT_AUTH_FAILURES: String(FAILURES),
    FOLIO_RATE_LIMIT_WRITES: String(WRITES),
    FOLIO_RATE_LIMIT_ANONYMOUS: String(ANONYMOUS),
  });
  short = await startTestServer({ FOLIO_RATE_LIMIT_WINDOW_S: '1', FOLIO_RATE_LIMIT_AUTH_FAILURES: '1' });
  // Two of the admin's WRITES: it writes nothing else.
  const orgId = (await t.client.orgs.createOrganization({ title: 'Limits Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Limits space' })).data.id;
});
afterAll(async () => {
  await t?.close();
  await short?.close();
});

let addressCounter = 0;
/** A client address of its own (X-Forwarded-For through the trusted loopback proxy). */
const newAddress = () => `10.0.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

const get = (server: TestServer, path: string, from: string | undefined, token?: string | null) =>
  raw(server, 'GET', path, { token, headers: from ? { 'x-forwarded-for': from } : {} });

/** A GET with its own Host header (fetch cannot set one): the status. */
function getWithHost(path: string, host: string, from: string): Promise<number> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, headers: { host, 'x-forwarded-for': from } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Asserts a 429 in the error shape whose Retry-After is a whole number of seconds within the window. */
function expectTooMany(res: RawResponse, windowS = WINDOW_S): void {
  expectError(res, 429, /retry in \d+ s/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowS);
}

describe('failed authentications per client address', () => {
  it('answers 429 with Retry-After once an address has used up its failures; tokens it already used keep working', async () => {
    const guesser = newAddress();
    const colleague = await newUser(t, 'Colleague');
    const newcomer = await newUser(t, 'Newcomer');
    // The colleague works from the same address (an office NAT) before the guessing starts.
    expect((await get(t, '/v1/user', guesser, colleague.token)).status).toBe(200);
    for (let i = 0; i < FAILURES; i++) expectError(await get(t, '/v1/user', guesser, `folio_guess_${i}`), 401);
    expectTooMany(await get(t, '/v1/user', guesser, 'folio_guess_next'));
    expectTooMany(await get(t, '/v1/user', guesser, null));
    // A valid token never seen here is refused like a guess: the guesser cannot tell it is valid.
    expectTooMany(await get(t, '/v1/user', guesser, newcomer.token));
    // A token already seen valid cannot be a guess: its holder is not locked out with the guesser.
    expect((await get(t, '/v1/user', guesser, colleague.token)).status).toBe(200);
    // Another address has its own budget: the same new token works there, and a bad one is a plain 401.
    const elsewhere = newAddress();
    expect((await get(t, '/v1/user', elsewhere, newcomer.token)).status).toBe(200);
    expectError(await get(t, '/v1/user', elsewhere, 'folio_typo'), 401);
  });

  it('forgets a known token once it is refused (revoked): from then on it is checked like a guess', async () => {
    const from = newAddress();
    const user = await newUser(t, 'Soon revoked');
    expect((await get(t, '/v1/user', from, user.token)).status).toBe(200);
    for (let i = 0; i < FAILURES; i++) expectError(await get(t, '/v1/user', from, `folio_revoked_guess_${i}`), 401);
    expect((await get(t, '/v1/user', from, user.token)).status).toBe(200);
    // What `npm run folio -- token revoke <id>` runs, through this server's database.
    await t.server.ctx.db.query('DELETE FROM api_tokens WHERE user_id = $1', [user.id]);
    expectError(await get(t, '/v1/user', from, user.token), 401);
    expectTooMany(await get(t, '/v1/user', from, user.token));
  });

  it('claims the budget before the token is checked: parallel guesses get no more than the limit', async () => {
    const guesser = newAddress();
    const answers = await Promise.all(
      Array.from({ length: FAILURES * 4 }, (_, i) => get(t, '/v1/user', guesser, `folio_parallel_${i}`)),
    );
    expect(answers.filter((r) => r.status === 401)).toHaveLength(FAILURES);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(FAILURES * 3);
  });

  it("shares one claim between a client's parallel first requests with the same token (REST and upgrades)", async () => {
    const client = newAddress();
    const user = await newUser(t, 'Busy client');
    const answers = await Promise.all(
      Array.from({ length: FAILURES * 4 }, () => get(t, '/v1/user', client, user.token)),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    // A valid token of someone who cannot see the space: 404 (not 429) for every socket.
    const socketUser = await newUser(t, 'Socket client');
    const upgrades = await Promise.all(
      Array.from({ length: FAILURES * 4 }, () =>
        upgradeStatus(syncUrl(t.url, spaceId, socketUser.token), { 'x-forwarded-for': client }),
      ),
    );
    expect(upgrades.map((u) => u.status)).toEqual(upgrades.map(() => 404));
  });

  it('gives the claim back for a valid token: successes do not use up the budget', async () => {
    const client = newAddress();
    const users = await Promise.all(Array.from({ length: FAILURES + 2 }, () => newUser(t)));
    for (const u of users) expect((await get(t, '/v1/user', client, u.token)).status).toBe(200);
    for (let i = 0; i < FAILURES; i++) expectError(await get(t, '/v1/user', client, `folio_wrong_${i}`), 401);
    expectTooMany(await get(t, '/v1/user', client, 'folio_wrong_last'));
  });

  it('counts refused WebSocket upgrades in the same budget, and refuses them with 429 too', async () => {
    const guesser = newAddress();
    const headers = { 'x-forwarded-for': guesser };
    for (let i = 0; i < FAILURES - 1; i++)
      expect((await upgradeStatus(syncUrl(t.url, spaceId, `folio_ws_guess_${i}`), headers)).status).toBe(401);
    expectError(await get(t, '/v1/user', guesser, 'folio_rest_guess'), 401);
    const refused = await upgradeStatus(syncUrl(t.url, spaceId, 'folio_ws_guess_last'), headers);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: 429, message: expect.stringMatching(/retry in/) },
    });
    expectTooMany(await get(t, '/v1/user', guesser, 'folio_rest_after'));
    // The admin's token was seen valid (setup): its socket still opens from there.
    expect((await upgradeStatus(syncUrl(t.url, spaceId, t.adminToken), headers)).status).toBe(101);
  });

  it('ignores X-Forwarded-For unless the peer is a trusted proxy (FOLIO_TRUST_PROXY)', async () => {
    // `short` trusts no proxy: every made-up address is 127.0.0.1, whose one failure per window is soon spent.
    const statuses: number[] = [];
    await waitFor(
      async () => {
        statuses.push((await get(short, '/v1/user', newAddress(), 'folio_spoofed')).status);
        return statuses.includes(429);
      },
      10_000,
      'a 429 despite a new X-Forwarded-For on every request',
    );
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });

  it('lets the address try again once the window has passed', async () => {
    // Spend the budget (the 1 s window may turn over meanwhile: then keep going until a 429).
    await waitFor(
      async () => (await get(short, '/v1/user', undefined, 'folio_spend')).status === 429,
      10_000,
      'the budget of 127.0.0.1 to be spent',
    );
    // Refused until the window ends, then a bad token is a plain 401 again, and a good one works.
    await waitFor(
      async () => (await get(short, '/v1/user', undefined, 'folio_retry')).status === 401,
      10_000,
      'the window to pass',
    );
    await waitFor(
      async () => (await get(short, '/v1/user', undefined, short.adminToken)).status === 200,
      10_000,
      'the admin token to work again',
    );
  });
});

describe('per token and per address', () => {
  it('limits writes per token (its hash); reads and other tokens are not affected', async () => {
    const writer = await newUser(t, 'Writer');
    const other = await newUser(t, 'Other writer');
    const from = newAddress();
    const create = (token: string, i: number) =>
      raw(t, 'POST', '/v1/orgs', { token, body: { title: `Org ${i}` }, headers: { 'x-forwarded-for': from } });
    for (let i = 0; i < WRITES; i++) expect((await create(writer.token, i)).status).toBe(201);
    expectTooMany(await create(writer.token, WRITES));
    expect((await get(t, '/v1/user', from, writer.token)).status).toBe(200);
    expect((await create(other.token, 0)).status).toBe(201);
  });

  it('limits reads per token when FOLIO_RATE_LIMIT_READS is set: GET and HEAD count, public routes do not', async () => {
    const reads = await startTestServer({ FOLIO_RATE_LIMIT_READS: '3', FOLIO_RATE_LIMIT_WRITES: '0' });
    try {
      const reader = await newUser(reads, 'Reader');
      expect((await raw(reads, 'GET', '/v1/user', { token: reader.token })).status).toBe(200);
      expect((await raw(reads, 'HEAD', '/v1/user', { token: reader.token })).status).toBe(200);
      expect((await raw(reads, 'GET', '/v1/user', { token: reader.token })).status).toBe(200);
      expectTooMany(await raw(reads, 'GET', '/v1/user', { token: reader.token }));
      expect((await raw(reads, 'HEAD', '/v1/user', { token: reader.token })).status).toBe(429);
      // Another token, a public route and writes (unlimited here) are not affected.
      expect((await raw(reads, 'GET', '/v1/user', { token: reads.adminToken })).status).toBe(200);
      expect((await raw(reads, 'GET', '/v1', { token: reader.token })).status).toBe(200);
      const created = await raw(reads, 'POST', '/v1/orgs', { token: reader.token, body: { title: 'Still writes' } });
      expect(created.status).toBe(201);
    } finally {
      await reads.close();
    }
  });

  it('limits requests without a token per address: public API routes and published sites', async () => {
    const visitor = newAddress();
    for (let i = 0; i < ANONYMOUS - 1; i++) expect((await get(t, '/v1', visitor)).status).toBe(200);
    expect((await get(t, '/sites/unknownsite/', visitor)).status).toBe(404); // an HTML page
    expectTooMany(await get(t, '/sites/unknownsite/', visitor));
    expectTooMany(await get(t, '/v1', visitor));
    expect((await get(t, '/v1', newAddress())).status).toBe(200);
    // A site at the root of its own hostname counts too; health checks on that host do not.
    const reader = newAddress();
    for (let i = 0; i < ANONYMOUS; i++) expect(await getWithHost('/', 'docs.elsewhere.test', reader)).not.toBe(429);
    expect(await getWithHost('/some/page', 'docs.elsewhere.test', reader)).toBe(429);
    expect(await getWithHost('/healthz', 'docs.elsewhere.test', reader)).toBe(200);
    // Token holders are limited per token, not by the address's anonymous budget.
    expect((await get(t, '/v1/user', visitor, t.adminToken)).status).toBe(200);
  });
});
