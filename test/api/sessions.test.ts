import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CloseCode } from '../../shared/sync-contract';
import { saveSignInRequest } from '../../sync-server/store/sign-in-requests';
import {
  deleteSamlProviderRow,
  insertSamlProviderRow,
  updateSamlProviderRow,
} from '../../sync-server/store/saml-providers';
import { expectError, newUser, raw, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';
import { fromOwnPage, signIn } from '../helpers/sessions';
import { syncUrl } from '../helpers/sync-clients';
import { upgradeStatus } from '../helpers/raw-sockets';

/**
 * The web app's session cookie: it authenticates REST and sync sockets from
 * this server's own pages only (a request another site makes a signed-in
 * browser send is refused and changes nothing), it expires, sign-out and
 * revocation end it at once, and the owner sees it in /v1/user/tokens.
 */
let t: TestServer;
let orgId: string;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Sessions Org' })).data.id;
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.terminate();
});
afterAll(async () => {
  await t?.close();
});

async function orgCount(user: TestUser): Promise<number> {
  const res = await raw(t, 'GET', '/v1/orgs', { token: user.token });
  expect(res.status).toBe(200);
  return (res.body as { items: unknown[] }).items.length;
}

type Listed = {
  id: string;
  kind: string;
  current: boolean;
  label: string;
  expiresAt?: string;
  signInMethod?: string;
  userAgent?: string;
};

/** A socket opened the way the web app opens one: the cookie rides along, the Origin says which page. */
function cookieSocket(spaceId: string, headers: Record<string, string>) {
  const ws = new WebSocket(syncUrl(t.url, spaceId, null), { headers });
  sockets.push(ws);
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, opened, closed };
}

describe('the session cookie on REST', () => {
  it('authenticates a GET, and the owner sees the session listed as current with its details', async () => {
    const user = await newUser(t, 'Cora Cookie');
    const session = await signIn(t, user.id, { method: 'oidc', userAgent: 'Firefox/140' });
    const me = await raw(t, 'GET', '/v1/user', { headers: { cookie: session.cookie } });
    expect(me.status).toBe(200);
    expect((me.body as { id: string }).id).toBe(user.id);

    const list = await raw(t, 'GET', '/v1/user/tokens', { headers: { cookie: session.cookie } });
    expect(list.status).toBe(200);
    const items = (list.body as { items: Listed[] }).items;
    expect(items.map((i) => [i.kind, i.current])).toEqual([
      ['api', false],
      ['session', true],
    ]);
    const listed = items[1]!;
    expect(listed).toMatchObject({ id: session.id, signInMethod: 'oidc', userAgent: 'Firefox/140' });
    expect(Date.parse(listed.expiresAt!)).toBeGreaterThan(Date.now());
    expect(items[0]!.expiresAt).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(session.token);
    // Seen with the bearer token, the API token is the current one.
    const byBearer = await raw(t, 'GET', '/v1/user/tokens', { token: user.token });
    expect((byBearer.body as { items: Listed[] }).items.map((i) => i.current)).toEqual([true, false]);
  });

  it('refuses a state change another site makes the browser send (403) and changes nothing', async () => {
    const user = await newUser(t, 'Cass Csrf');
    const { cookie } = await signIn(t, user.id);
    const before = await orgCount(user);
    const attempts: Record<string, string>[] = [
      { cookie, origin: 'http://evil.example' },
      { cookie, origin: t.url, 'sec-fetch-site': 'cross-site' },
      { cookie, 'sec-fetch-site': 'same-site' },
      { cookie, origin: 'null' },
      { cookie }, // no Origin at all: not what a browser sends from a page of ours
    ];
    for (const headers of attempts)
      expectError(await raw(t, 'POST', '/v1/orgs', { headers, body: { title: 'Forged' } }), 403, /Cross-site/);
    expect(await orgCount(user)).toBe(before);

    const own = await raw(t, 'POST', '/v1/orgs', { headers: fromOwnPage(t, cookie), body: { title: 'Mine' } });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const byOrigin = await raw(t, 'POST', '/v1/orgs', { headers: { cookie, origin: t.url }, body: { title: 'Two' } });
    expect(byOrigin.status).toBe(201);
    // A bearer token is no ambient authority: no Origin needed.
    expect((await raw(t, 'POST', '/v1/orgs', { token: user.token, body: { title: 'Script' } })).status).toBe(201);
    expect(await orgCount(user)).toBe(before + 3);
  });

  it('stops at its expiry (401), and the expired row leaves the owner’s list', async () => {
    const user = await newUser(t, 'Ezra Expired');
    const expired = await signIn(t, user.id, { issuedAt: new Date(Date.now() - 2 * 3600_000), ttlMs: 3600_000 });
    expectError(await raw(t, 'GET', '/v1/user', { headers: { cookie: expired.cookie } }), 401);
    expectError(await raw(t, 'GET', '/v1/user', { token: expired.token }), 401);
    const list = await raw(t, 'GET', '/v1/user/tokens', { token: user.token });
    expect((list.body as { items: Listed[] }).items.map((i) => i.kind)).toEqual(['api']);
  });

  it('sign-out deletes the session: the cookie no longer works anywhere', async () => {
    const user = await newUser(t, 'Sid Signout');
    const session = await signIn(t, user.id);
    const other = await signIn(t, user.id);
    // From another site: refused, still signed in.
    expectError(
      await raw(t, 'POST', '/auth/sign-out', { headers: { cookie: session.cookie, origin: 'http://evil.example' } }),
      403,
    );
    expect((await raw(t, 'GET', '/v1/user', { headers: { cookie: session.cookie } })).status).toBe(200);

    const out = await raw(t, 'POST', '/auth/sign-out', { headers: fromOwnPage(t, session.cookie) });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^folio_session=;.*Expires=Thu, 01 Jan 1970/i);
    expect(out.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expectError(await raw(t, 'GET', '/v1/user', { headers: { cookie: session.cookie } }), 401);
    // Only that session: the other browser stays signed in.
    expect((await raw(t, 'GET', '/v1/user', { headers: { cookie: other.cookie } })).status).toBe(200);
    const ids = ((await raw(t, 'GET', '/v1/user/tokens', { token: user.token })).body as { items: Listed[] }).items;
    expect(ids.map((i) => i.id)).not.toContain(session.id);

    // A page's form may sign out and go on to a page of this server (never another site).
    const form = await fetch(`${t.url}/auth/sign-out`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...fromOwnPage(t, other.cookie), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'next=%2F%2Fevil.example%2F',
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/app/');
    expectError(await raw(t, 'GET', '/v1/user', { headers: { cookie: other.cookie } }), 401);
  });

  it('an API token set as the cookie by hand is not revoked by sign-out', async () => {
    const user = await newUser(t, 'Hand Set');
    const out = await raw(t, 'POST', '/auth/sign-out', { headers: fromOwnPage(t, `folio_session=${user.token}`) });
    expect(out.status).toBe(204);
    expect((await raw(t, 'GET', '/v1/user', { token: user.token })).status).toBe(200);
  });
});

describe('the session cookie on sync sockets', () => {
  it('connects from the server’s own page, is refused from another site, and closes when revoked (4401)', async () => {
    const user = await newMember(t, orgId, null, 'Wes Socket');
    const session = await signIn(t, user.id);
    const spaceId = (await raw(t, 'POST', `/v1/orgs/${orgId}/spaces`, { token: t.adminToken, body: { title: 'S' } }))
      .body as { id: string };
    const grant = await raw(t, 'POST', `/v1/spaces/${spaceId.id}/permissions`, {
      token: t.adminToken,
      body: { role: 'edit', users: [user.id] },
    });
    expect(grant.status).toBe(204);

    const url = syncUrl(t.url, spaceId.id, null);
    expect((await upgradeStatus(url, { cookie: session.cookie, origin: 'http://evil.example' })).status).toBe(401);
    expect((await upgradeStatus(url, { cookie: session.cookie })).status).toBe(401);
    expect((await upgradeStatus(url, { cookie: session.cookie, origin: t.url })).status).toBe(101);

    const socket = cookieSocket(spaceId.id, { cookie: session.cookie, origin: t.url });
    await socket.opened;
    const revoke = await raw(t, 'DELETE', `/v1/user/tokens/${session.id}`, { token: user.token });
    expect(revoke.status).toBe(204);
    expect(await socket.closed).toBe(CloseCode.unauthorized);
    expectError(await raw(t, 'GET', '/v1/user', { headers: { cookie: session.cookie } }), 401);
  });

  it('sign-out closes the session’s sockets too', async () => {
    const user = await newMember(t, orgId, null, 'Olive Out');
    const session = await signIn(t, user.id);
    const space = (await raw(t, 'POST', `/v1/orgs/${orgId}/spaces`, { token: t.adminToken, body: { title: 'O' } }))
      .body as { id: string };
    await raw(t, 'POST', `/v1/spaces/${space.id}/permissions`, {
      token: t.adminToken,
      body: { role: 'read', users: [user.id] },
    });
    const socket = cookieSocket(space.id, { cookie: session.cookie, origin: t.url });
    await socket.opened;
    expect((await raw(t, 'POST', '/auth/sign-out', { headers: fromOwnPage(t, session.cookie) })).status).toBe(204);
    expect(await socket.closed).toBe(CloseCode.unauthorized);
  });
});

describe('GET /auth/methods', () => {
  it('says what this server offers, to any origin and without a session', async () => {
    const res = await fetch(`${t.url}/auth/methods`, { headers: { origin: 'file://' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(await res.json()).toEqual({ sso: false, oidc: null, email: true, token: true });
  });

  it('offers SSO once some organization has a SAML provider ready (a pending one starts no login)', async () => {
    const db = t.server.ctx.db;
    await insertSamlProviderRow(db, {
      id: 'methods-test-provider',
      organization_id: orgId,
      label: 'Okta',
      entity_id: null,
      sso_url: null,
      certificate: null,
      default_team_id: null,
      default_role: null,
      createdAt: new Date(),
    });
    expect((await raw(t, 'GET', '/auth/methods')).body).toMatchObject({ sso: false });
    await updateSamlProviderRow(db, orgId, 'methods-test-provider', {
      entity_id: 'https://idp.example.com/entity',
      sso_url: 'https://idp.example.com/sso',
      certificate: 'MIIB',
    });
    expect((await raw(t, 'GET', '/auth/methods')).body).toMatchObject({ sso: true });
    await deleteSamlProviderRow(db, orgId, 'methods-test-provider');
  });

  it('offers OpenID Connect and hides email links as configured', async () => {
    const other = await startTestServer({
      FOLIO_OIDC_ISSUER: 'https://id.example.com/realms/folio',
      FOLIO_OIDC_CLIENT_ID: 'folio',
      FOLIO_OIDC_LABEL: 'Example ID',
      FOLIO_EMAIL_SIGN_IN: 'off',
    });
    try {
      const body = (await raw(other, 'GET', '/auth/methods')).body;
      expect(body).toEqual({
        sso: false,
        oidc: { label: 'Example ID', startURL: `${other.url}/auth/oidc/start` },
        email: false,
        token: true,
      });
    } finally {
      await other.close();
    }
  });
});

describe('the purge of expired sign-ins', () => {
  it('deletes expired sessions and sign-in steps by the job clock, and nothing live', async () => {
    // What earlier tests left expired goes first.
    await t.server.jobs.runAll();
    const user = await newUser(t, 'Pia Purge');
    const db = t.server.ctx.db;
    const live = await signIn(t, user.id, { ttlMs: 30 * 24 * 3600_000 });
    const shortLived = await signIn(t, user.id, { issuedAt: t.clock.now(), ttlMs: 3600_000 });
    await saveSignInRequest(db, {
      id: 'purge-test-step',
      kind: 'device-code',
      data: {},
      expiresAt: new Date(t.clock.now().getTime() + 60_000),
    });
    const first = await t.server.jobs.runAll();
    expect(first.purgedSignIns).toBe(0);

    t.clock.advance(2 * 3600_000);
    const report = await t.server.jobs.runAll();
    expect(report.purgedSignIns).toBe(2);
    const rows = await db.query<{ id: string; kind: string }>(
      'SELECT id, kind FROM api_tokens WHERE user_id = $1 ORDER BY created_at, id',
      [user.id],
    );
    // The user's API token and the live session remain (in either order: both rows may share a created_at).
    expect(rows.map((r) => (r.kind === 'api' ? 'api' : r.id)).sort()).toEqual(['api', live.id].sort());
    expect(await db.query('SELECT id FROM sign_in_requests WHERE id = $1', ['purge-test-step'])).toEqual([]);
    expectError(await raw(t, 'GET', '/v1/user', { headers: { cookie: shortLived.cookie } }), 401);
  });
});
