import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { expectError, raw } from '../helpers/api';
import { upgradeStatus } from '../helpers/raw-sockets';
import { TEST_ADMIN_TOKEN } from '../helpers/server';
import { startCluster, type Cluster } from '../helpers/processes';

/**
 * Two server processes sharing the machine's Redis count against the same
 * rate limits: failed authentications on one process throttle the address
 * on the other (REST and WebSocket upgrades), and a token's writes add up
 * across processes. Redis keys name a token only by its SHA-256.
 */

const FAILURES = 3;
const WRITES = 2;

let cluster: Cluster;
let a: string;
let b: string;
let redis: Redis;

beforeAll(async () => {
  cluster = await startCluster(2, {
    env: {
      FOLIO_TRUST_PROXY: 'loopback',
      FOLIO_RATE_LIMIT_AUTH_FAILURES: String(FAILURES),
      FOLIO_RATE_LIMIT_WRITES: String(WRITES),
    },
  });
  [a, b] = cluster.processes.map((p) => p.url) as [string, string];
  redis = new Redis(cluster.env.FOLIO_REDIS_URL!);
}, 120_000);
afterAll(async () => {
  redis?.disconnect();
  await cluster?.close();
});

const get = (url: string, from: string, token: string) =>
  raw({ url }, 'GET', '/v1/user', { token, headers: { 'x-forwarded-for': from } });

describe('rate limits shared through Redis', () => {
  it('counts failed authentications on process A against the address on process B', async () => {
    const guesser = '10.20.0.1';
    for (let i = 0; i < FAILURES; i++) expectError(await get(a, guesser, `folio_guess_a_${i}`), 401);
    const refused = await get(b, guesser, 'folio_guess_b');
    expectError(refused, 429, /retry in \d+ s/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const upgrade = await upgradeStatus(`${b.replace('http', 'ws')}/v1/sync/spaces/anyspace?token=folio_guess_ws`, {
      'x-forwarded-for': guesser,
    });
    expect(upgrade.status).toBe(429);
    // Another address is not affected, on either process.
    expectError(await get(b, '10.20.0.2', 'folio_typo'), 401);
  });

  it("adds a token's writes up across processes, keyed by the token's hash", async () => {
    const create = (url: string, i: number) =>
      raw({ url }, 'POST', '/v1/orgs', { token: TEST_ADMIN_TOKEN, body: { title: `Org ${i}` } });
    expect((await create(a, 0)).status).toBe(201);
    expect((await create(b, 1)).status).toBe(201);
    expectError(await create(a, 2), 429, /retry in \d+ s/);
    expectError(await create(b, 3), 429);
    const keys = await redis.keys(`${cluster.env.FOLIO_REDIS_PREFIX}:rate:*`);
    const hash = createHash('sha256').update(TEST_ADMIN_TOKEN).digest('hex');
    expect(keys).toContain(`${cluster.env.FOLIO_REDIS_PREFIX}:rate:writes:${hash}`);
    expect(keys.some((k) => k.includes(TEST_ADMIN_TOKEN))).toBe(false);
  });
});
