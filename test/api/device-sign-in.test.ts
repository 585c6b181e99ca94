import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateOrganizationRow } from '../../sync-server/store/organizations';
import { markSsoMember } from '../../sync-server/store/members';
import { approveDomain } from '../helpers/domains';
import { expectError, newUser, raw, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';
import { fromOwnPage, pkcePair, signIn, type TestSession } from '../helpers/sessions';

/**
 * The desktop app's sign-in, end to end: a loopback listener on 127.0.0.1
 * plays the app, fetch plays the signed-in browser. Approve → code at the
 * app's address → code + PKCE verifier traded for a device token. Every way
 * of getting a token without the verifier, twice, late, to another address
 * or from another site is refused and issues nothing.
 */
let t: TestServer;
let app: Server;
let callback: string;
/** What the "desktop app" received at its loopback address. */
const received: URLSearchParams[] = [];

beforeAll(async () => {
  t = await startTestServer();
  app = createServer((req, res) => {
    received.push(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
    res.end('You can close this window.');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  callback = `http://127.0.0.1:${(app.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  await new Promise((resolve) => app?.close(resolve));
  await t?.close();
});

interface Request {
  redirect_uri: string;
  state: string;
  code_challenge: string;
  code_challenge_method: string;
  device_name?: string;
}

function authorization(challenge: string, overrides: Partial<Request> = {}): Request {
  return {
    redirect_uri: callback,
    state: `state-${Math.random().toString(36).slice(2)}`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    device_name: 'Jane’s <MacBook>',
    ...overrides,
  };
}

const query = (r: Request) => new URLSearchParams(r as unknown as Record<string, string>).toString();

/** The browser, without following redirects (the test follows them where a browser would). */
function browse(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return fetch(`${t.url}${path}`, { redirect: 'manual', ...init });
}

/** Approves in the browser (the consent form's post) and follows the redirect to the app; the code it got. */
async function approve(session: TestSession, request: Request): Promise<string> {
  const res = await browse('/auth/device/approve', {
    method: 'POST',
    headers: { ...fromOwnPage(t, session.cookie), 'content-type': 'application/x-www-form-urlencoded' },
    body: `${query(request)}&decision=approve`,
  });
  expect(res.status, await res.clone().text()).toBe(303);
  const location = res.headers.get('location')!;
  expect(location.startsWith(`${request.redirect_uri}?`)).toBe(true);
  const before = received.length;
  expect((await fetch(location)).status).toBe(200);
  const got = received[before]!;
  expect(got.get('state')).toBe(request.state);
  return got.get('code')!;
}

function exchange(code: string, verifier: string, redirectUri = callback) {
  return raw(t, 'POST', '/auth/device/token', { body: { code, code_verifier: verifier, redirect_uri: redirectUri } });
}

async function deviceRows(user: TestUser) {
  return t.server.ctx.db.query<{ id: string; label: string; sign_in_method: string }>(
    "SELECT id, label, sign_in_method FROM api_tokens WHERE user_id = $1 AND kind = 'device'",
    [user.id],
  );
}

async function pendingCodes(): Promise<number> {
  return (await t.server.ctx.db.query("SELECT id FROM sign_in_requests WHERE kind = 'device-code'")).length;
}

describe('desktop device sign-in', () => {
  it('sends a browser without a session to sign in first, then back to the same request', async () => {
    const request = authorization(pkcePair().challenge);
    const res = await browse(`/auth/device/authorize?${query(request)}`);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!, t.url);
    expect(location.pathname).toBe('/app/sign-in');
    expect(location.searchParams.get('next')).toBe(`/auth/device/authorize?${query(request)}`);
  });

  it('shows a consent page, then hands a code to the app, traded once for a working device token', async () => {
    const user = await newUser(t, 'Dana Device');
    const session = await signIn(t, user.id, { method: 'oidc' });
    const { verifier, challenge } = pkcePair();
    const request = authorization(challenge);

    const page = await browse(`/auth/device/authorize?${query(request)}`, { headers: { cookie: session.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Folio desktop on Jane’s &lt;MacBook&gt;');
    expect(html).toContain(user.email);
    expect(html).toContain('action="/auth/device/approve"');
    expect(html).not.toMatch(/<script/i);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain(`form-action 'self' ${new URL(callback).origin}`);
    expect(csp).toMatch(/frame-ancestors 'none'/);

    const code = await approve(session, request);
    const token = await exchange(code, verifier);
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    const issued = token.body as { token: string; tokenId: string; userId: string; expiresAt: string };
    expect(issued.userId).toBe(user.id);
    expect(token.headers.get('cache-control')).toBe('no-store');
    const me = await raw(t, 'GET', '/v1/user', { token: issued.token });
    expect((me.body as { id: string }).id).toBe(user.id);

    const listed = (
      (await raw(t, 'GET', '/v1/user/tokens', { token: issued.token })).body as {
        items: {
          id: string;
          kind: string;
          label: string;
          signInMethod?: string;
          current: boolean;
          expiresAt?: string;
        }[];
      }
    ).items.find((i) => i.id === issued.tokenId)!;
    expect(listed).toMatchObject({ kind: 'device', label: 'Jane’s <MacBook>', signInMethod: 'oidc', current: true });
    expect(listed.expiresAt).toBe(issued.expiresAt);

    // Used once: a second exchange of the same code gets nothing.
    expectError(await exchange(code, verifier), 400, /already used/);
    expect(await deviceRows(user)).toHaveLength(1);

    // Revoked like any token.
    expect((await raw(t, 'DELETE', `/v1/user/tokens/${issued.tokenId}`, { token: user.token })).status).toBe(204);
    expectError(await raw(t, 'GET', '/v1/user', { token: issued.token }), 401);
  });

  it('refuses a wrong verifier, and the code is burnt: the right one afterwards gets nothing', async () => {
    const user = await newUser(t, 'Vera Verifier');
    const session = await signIn(t, user.id);
    const { verifier, challenge } = pkcePair();
    const code = await approve(session, authorization(challenge));
    expectError(await exchange(code, pkcePair().verifier), 400, /code_verifier/);
    expectError(await exchange(code, verifier), 400);
    expect(await deviceRows(user)).toEqual([]);
  });

  it('refuses an expired code, an unknown code and another redirect_uri', async () => {
    const user = await newUser(t, 'Exa Expiry');
    const session = await signIn(t, user.id);
    const first = pkcePair();
    const late = await approve(session, authorization(first.challenge));
    t.clock.advance(6 * 60_000);
    expectError(await exchange(late, first.verifier), 400, /expired/);

    const second = pkcePair();
    const code = await approve(session, authorization(second.challenge));
    expectError(await exchange(code, second.verifier, `http://127.0.0.1:1/other`), 400, /redirect_uri/);
    expectError(await exchange('no-such-code', second.verifier), 400);
    expectError(await exchange(code, 'short'), 400);
    expect(await deviceRows(user)).toEqual([]);
  });

  it('refuses every redirect_uri but a loopback listener or the deep link, with a page and no redirect', async () => {
    const user = await newUser(t, 'Rita Redirect');
    const session = await signIn(t, user.id);
    const { challenge } = pkcePair();
    for (const redirect_uri of [
      'https://evil.example/callback',
      'http://evil.example:8080/callback',
      'http://127.0.0.1/callback',
      'http://user:pw@127.0.0.1:5000/callback',
      'http://127.0.0.1:5000/callback#x',
      'folio://auth/other',
      'javascript:alert(1)',
    ]) {
      const res = await browse(`/auth/device/authorize?${query(authorization(challenge, { redirect_uri }))}`, {
        headers: { cookie: session.cookie },
      });
      expect(res.status, redirect_uri).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('redirect_uri');
      const post = await browse('/auth/device/approve', {
        method: 'POST',
        headers: { ...fromOwnPage(t, session.cookie), 'content-type': 'application/x-www-form-urlencoded' },
        body: `${query(authorization(challenge, { redirect_uri }))}&decision=approve`,
      });
      expect(post.status, redirect_uri).toBe(400);
    }
    for (const bad of [{ code_challenge_method: 'plain' }, { code_challenge: 'short' }, { state: '' }])
      expect(
        (
          await browse(`/auth/device/authorize?${query(authorization(challenge, bad))}`, {
            headers: { cookie: session.cookie },
          })
        ).status,
      ).toBe(400);
    // The deep link and the IPv6 loopback are addresses of the app.
    const deep = await browse(
      `/auth/device/authorize?${query(authorization(challenge, { redirect_uri: 'folio://auth/callback' }))}`,
      {
        headers: { cookie: session.cookie },
      },
    );
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-security-policy')).toContain("form-action 'self' folio:");
    const v6 = await browse(
      `/auth/device/authorize?${query(authorization(challenge, { redirect_uri: 'http://[::1]:5000/cb' }))}`,
      {
        headers: { cookie: session.cookie },
      },
    );
    expect(v6.status).toBe(200);
  });

  it('hands the deep link its code in the redirect', async () => {
    const user = await newUser(t, 'Lina Link');
    const session = await signIn(t, user.id);
    const { verifier, challenge } = pkcePair();
    const request = authorization(challenge, { redirect_uri: 'folio://auth/callback' });
    const res = await browse('/auth/device/approve', {
      method: 'POST',
      headers: { ...fromOwnPage(t, session.cookie), 'content-type': 'application/x-www-form-urlencoded' },
      body: `${query(request)}&decision=approve`,
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.protocol}//${location.host}${location.pathname}`).toBe('folio://auth/callback');
    expect(location.searchParams.get('state')).toBe(request.state);
    const token = await exchange(location.searchParams.get('code')!, verifier, 'folio://auth/callback');
    expect(token.status).toBe(200);
  });

  it('refuses an approval posted from another site, or without a session, and stores nothing', async () => {
    const user = await newUser(t, 'Cleo Cross');
    const session = await signIn(t, user.id);
    const request = authorization(pkcePair().challenge);
    const pending = await pendingCodes();
    const receivedBefore = received.length;
    const attempts: Record<string, string>[] = [
      { cookie: session.cookie, origin: 'http://evil.example' },
      { cookie: session.cookie, origin: t.url, 'sec-fetch-site': 'cross-site' },
      { cookie: session.cookie },
    ];
    for (const headers of attempts) {
      const res = await browse('/auth/device/approve', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        body: `${query(request)}&decision=approve`,
      });
      expect(res.status).toBe(403);
      expect(res.headers.get('location')).toBeNull();
    }
    // Same origin but signed out: to the sign-in page, coming back to this request.
    const signedOut = await browse('/auth/device/approve', {
      method: 'POST',
      headers: { origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: `${query(request)}&decision=approve`,
    });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toMatch(/^\/app\/sign-in\?next=%2Fauth%2Fdevice%2Fauthorize%3F/);
    expect(await pendingCodes()).toBe(pending);
    expect(received.length).toBe(receivedBefore);
  });

  it('Cancel tells the app access_denied with its state, and issues no code', async () => {
    const user = await newUser(t, 'Nora No');
    const session = await signIn(t, user.id);
    const request = authorization(pkcePair().challenge);
    const pending = await pendingCodes();
    const res = await browse('/auth/device/approve', {
      method: 'POST',
      headers: { ...fromOwnPage(t, session.cookie), 'content-type': 'application/x-www-form-urlencoded' },
      body: `${query(request)}&decision=cancel`,
    });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe(request.state);
    expect(location.searchParams.get('code')).toBeNull();
    expect(await pendingCodes()).toBe(pending);
  });

  it('gives a person who must use SSO a device token only from a session made by SAML', async () => {
    const orgId = (await t.client.orgs.createOrganization({ title: 'SSO Only Org' })).data.id;
    const member = await newMember(t, orgId, 'edit', 'Sam Sso');
    await updateOrganizationRow(t.server.ctx.db, orgId, { sso: true });
    await markSsoMember(t.server.ctx.db, orgId, member.id);
    // The organization owns its members' domain (otherwise its flag would lock nobody out).
    await approveDomain(t, orgId, member.email.split('@')[1]!);
    const { verifier, challenge } = pkcePair();
    const request = authorization(challenge);

    const byEmail = await signIn(t, member.id, { method: 'email' });
    const page = await browse(`/auth/device/authorize?${query(request)}`, { headers: { cookie: byEmail.cookie } });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('single sign-on');
    const post = await browse('/auth/device/approve', {
      method: 'POST',
      headers: { ...fromOwnPage(t, byEmail.cookie), 'content-type': 'application/x-www-form-urlencoded' },
      body: `${query(request)}&decision=approve`,
    });
    expect(post.status).toBe(403);

    const bySaml = await signIn(t, member.id, { method: 'saml' });
    const code = await approve(bySaml, request);
    const token = await exchange(code, verifier);
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect((await deviceRows(member)).map((r) => r.sign_in_method)).toEqual(['saml']);
  });

  it('answers the exchange to any origin (the app’s sign-in screen may be a file:// page)', async () => {
    const preflight = await fetch(`${t.url}/auth/device/token`, {
      method: 'OPTIONS',
      headers: {
        origin: 'file://',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const res = await fetch(`${t.url}/auth/device/token`, {
      method: 'POST',
      headers: { origin: 'file://', 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'x', code_verifier: pkcePair().verifier, redirect_uri: callback }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
