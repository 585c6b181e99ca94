import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRoleOrGuest } from '@gitbook/api';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, newUser, raw, type RawResponse } from '../helpers/api';
import { newKeyPair } from '../helpers/saml-idp';
import { fromOwnPage, pkcePair, signIn } from '../helpers/sessions';

/**
 * The sign-in routes' limits (docs/configuration.md "Rate limits"): every request under
 * /auth counts in a budget per client address (FOLIO_RATE_LIMIT_SIGN_IN),
 * and one address may have only so many sign-ins in progress at once
 * (FOLIO_RATE_LIMIT_PENDING_SIGN_INS): SAML and OpenID Connect starts, email
 * links, device codes. Refusals are 429 with Retry-After; other addresses
 * keep their own budgets. The server trusts X-Forwarded-For from loopback,
 * so each test plays its own client addresses.
 */

const WINDOW_S = 60;
const SIGN_IN = 10;
const PENDING = 3;

let t: TestServer;
let samlStartPath: string;
beforeAll(async () => {
  t = await startTestServer({
    FOLIO_TRUST_PROXY: 'loopback',
    FOLIO_RATE_LIMIT_WINDOW_S: String(WINDOW_S),
    FOLIO_RATE_LIMIT_SIGN_IN: String(SIGN_IN),
    FOLIO_RATE_LIMIT_PENDING_SIGN_INS: String(PENDING),
  });
  const orgId = (await t.client.orgs.createOrganization({ title: 'Sign-in Limits Org' })).data.id;
  const teamId = (await t.client.orgs.createOrganizationTeam(orgId, { title: 'Everyone' })).data.id;
  const keys = await newKeyPair();
  const provider = (
    await t.client.orgs.createOrganizationSamlProvider(orgId, {
      label: 'Corp IdP',
      entityID: 'https://idp.example.test/metadata',
      ssoURL: 'https://idp.example.test/sso',
      certificate: keys.cert,
      defaultTeam: teamId,
      defaultRole: 'edit' as MemberRoleOrGuest,
    })
  ).data;
  samlStartPath = new URL(provider.service.startURL).pathname;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

let addressCounter = 0;
/** A client address of its own (X-Forwarded-For through the trusted loopback proxy). */
const newAddress = () => `10.9.${Math.floor(++addressCounter / 250)}.${addressCounter % 250}`;

const from = (address: string, headers: Record<string, string> = {}) => ({ ...headers, 'x-forwarded-for': address });

/** A request whose answer may be a page: its status, Retry-After and text. */
async function browse(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const res = await fetch(`${t.url}${path}`, { redirect: 'manual', ...init });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
}

/** A 429 of the per-address budget: the error shape, Retry-After within the window. */
function expectThrottled(res: RawResponse): void {
  expectError(res, 429, /^Too many sign-in requests from this address; retry in \d+ s$/);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
}

/** A 429 of the pending cap: Retry-After until the oldest pending sign-in of the address expires. */
function expectTooManyPending(status: number, retryAfter: string | null, text: string, maxWaitS: number): void {
  expect(status, text).toBe(429);
  expect(text).toMatch(/Too many sign-ins in progress from this address; finish one, or retry in \d+ s/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(maxWaitS);
}

const pendingRows = async (kind: string) =>
  (
    await t.server.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sign_in_requests WHERE kind = $1', [
      kind,
    ])
  )[0]!.n;

describe('requests to /auth per client address', () => {
  it('answers a burst of device-token exchanges with 429 once the budget is spent; another address is not affected', async () => {
    const burst = newAddress();
    const exchange = (address: string) =>
      raw(t, 'POST', '/auth/device/token', {
        body: { code: 'no-such-code', code_verifier: pkcePair().verifier, redirect_uri: 'http://127.0.0.1:9/cb' },
        headers: from(address),
      });
    const answers = await Promise.all(Array.from({ length: SIGN_IN * 3 }, () => exchange(burst)));
    expect(answers.filter((r) => r.status === 400)).toHaveLength(SIGN_IN);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(SIGN_IN * 2);
    for (const r of refused) expectThrottled(r);
    // Every route under /auth shares the address's budget, pages and unknown paths too.
    expectThrottled(await raw(t, 'GET', '/auth/methods', { headers: from(burst) }));
    expectThrottled(await raw(t, 'GET', '/auth/no-such-route', { headers: from(burst) }));
    // Another address has its own budget; the API and the web app do not count against /auth's.
    const other = newAddress();
    expectError(await exchange(other), 400);
    expect((await raw(t, 'GET', '/auth/methods', { headers: from(other) })).status).toBe(200);
    expect((await raw(t, 'GET', '/v1', { headers: from(burst) })).status).toBe(200);
  });

  it('answers a burst of device authorizations and of email-link confirmations with 429', async () => {
    const devices = newAddress();
    const { challenge } = pkcePair();
    const authorize = `/auth/device/authorize?redirect_uri=${encodeURIComponent('http://127.0.0.1:9/cb')}&state=s&code_challenge=${challenge}&code_challenge_method=S256`;
    const pages = await Promise.all(
      Array.from({ length: SIGN_IN + 5 }, () => browse(authorize, { headers: from(devices) })),
    );
    // Without a session: the way to sign in first (303), then 429.
    expect(pages.filter((p) => p.status === 303)).toHaveLength(SIGN_IN);
    expect(pages.filter((p) => p.status === 429)).toHaveLength(5);

    const links = newAddress();
    const verify = () =>
      raw(t, 'POST', '/auth/email/verify', {
        body: { token: 'x'.repeat(43) },
        headers: from(links, { origin: t.url, 'sec-fetch-site': 'same-origin', accept: 'application/json' }),
      });
    const answers = await Promise.all(Array.from({ length: SIGN_IN + 5 }, verify));
    expect(answers.filter((r) => r.status === 400)).toHaveLength(SIGN_IN);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    for (const r of refused) expectThrottled(r);
  });
});

describe('sign-ins in progress per client address', () => {
  it('keeps at most the cap of pending SAML requests from a burst of starts; another address still starts', async () => {
    const burst = newAddress();
    const before = await pendingRows('saml');
    // Parallel: the cap is counted under a lock, so no start slips past it.
    const starts = await Promise.all(
      Array.from({ length: SIGN_IN }, () => browse(samlStartPath, { headers: from(burst) })),
    );
    expect(starts.filter((s) => s.status === 302)).toHaveLength(PENDING);
    const refused = starts.filter((s) => s.status === 429);
    expect(refused).toHaveLength(SIGN_IN - PENDING);
    for (const r of refused) {
      expectTooManyPending(r.status, r.retryAfter, r.text, 600);
      expect(JSON.parse(r.text)).toMatchObject({ error: { code: 429 } });
    }
    expect(await pendingRows('saml')).toBe(before + PENDING);
    // The budget is spent too now: the next start is refused before anything is looked at.
    const next = await browse(samlStartPath, { headers: from(burst) });
    expect(next.status).toBe(429);
    expect(next.text).toMatch(/Too many sign-in requests/);
    expect(await pendingRows('saml')).toBe(before + PENDING);

    const other = await browse(samlStartPath, { headers: from(newAddress()) });
    expect(other.status).toBe(302);
    expect(await pendingRows('saml')).toBe(before + PENDING + 1);
  });

  it('counts email links against the cap, and refuses at the cap whether or not the address would get mail', async () => {
    const address = newAddress();
    const ask = (email: string) => raw(t, 'POST', '/auth/email/start', { body: { email }, headers: from(address) });
    const before = await pendingRows('email-link');
    for (let i = 0; i < PENDING; i++) expect((await ask((await newUser(t)).email)).status).toBe(202);
    expect(await pendingRows('email-link')).toBe(before + PENDING);
    const known = await ask((await newUser(t)).email);
    const unknown = await ask('nobody@nowhere.test');
    for (const r of [known, unknown]) {
      expectError(r, 429, /in progress/);
      expectTooManyPending(r.status, r.headers.get('retry-after'), JSON.stringify(r.body), 15 * 60);
    }
    expect(await pendingRows('email-link')).toBe(before + PENDING);
    // Someone elsewhere still gets their link.
    const elsewhere = await raw(t, 'POST', '/auth/email/start', {
      body: { email: (await newUser(t)).email },
      headers: from(newAddress()),
    });
    expect(elsewhere.status).toBe(202);
  });

  it('counts device approvals against the cap: over it, the consent post is a 429 page and no code is made', async () => {
    const address = newAddress();
    const user = await newUser(t, 'Busy Approver');
    const session = await signIn(t, user.id);
    const approve = () =>
      browse('/auth/device/approve', {
        method: 'POST',
        headers: from(address, {
          ...fromOwnPage(t, session.cookie),
          'content-type': 'application/x-www-form-urlencoded',
        }),
        body: new URLSearchParams({
          redirect_uri: 'http://127.0.0.1:9/cb',
          state: 'state-1',
          code_challenge: pkcePair().challenge,
          code_challenge_method: 'S256',
          decision: 'approve',
        }).toString(),
      });
    const before = await pendingRows('device-code');
    for (let i = 0; i < PENDING; i++) expect((await approve()).status).toBe(303);
    const refused = await approve();
    expectTooManyPending(refused.status, refused.retryAfter, refused.text, 5 * 60);
    expect(refused.text).toContain('<h1>The desktop app could not be connected</h1>');
    expect(await pendingRows('device-code')).toBe(before + PENDING);
  });
});
