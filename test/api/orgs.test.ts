import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { asRole, expectError, fails, newUser, ok, raw } from '../helpers/api';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

describe('organizations', () => {
  it('serves API information without a token', async () => {
    const info = await ok('getApiInformation', t.clientFor('').getApiInformation());
    expect(info).toHaveProperty('version');
  });

  it('returns the authenticated user', async () => {
    const me = await ok('getAuthenticatedUser', t.client.user.getAuthenticatedUser());
    expect(me.displayName).toBe('Administrator');
  });

  it('creates, reads, lists and updates an organization', async () => {
    const org = await ok(
      'createOrganization',
      t.client.orgs.createOrganization({ title: 'Acme Docs', emailDomains: ['acme.test'] }),
      201,
    );
    expect(org.permissions.admin).toBe(true);
    const got = await ok('getOrganizationById', t.client.orgs.getOrganizationById(org.id));
    expect(got.title).toBe('Acme Docs');
    const list = await ok(
      'listOrganizationsForAuthenticatedUser',
      t.client.orgs.listOrganizationsForAuthenticatedUser(),
    );
    expect(list.items.map((o) => o.id)).toContain(org.id);
    const updated = await ok(
      'updateOrganizationById',
      t.client.orgs.updateOrganizationById(org.id, {
        title: 'Acme',
        hostname: 'acme',
        defaultRole: asRole('read'),
        inviteLinks: false,
      }),
    );
    expect(updated).toMatchObject({ title: 'Acme', hostname: 'acme', defaultRole: asRole('read'), inviteLinks: false });
  });

  it('hides other organizations and rejects bad input', async () => {
    const org = await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Private Org' }), 201);
    const stranger = await newUser(t);
    await fails(t.clientFor(stranger.token).orgs.getOrganizationById(org.id), 404);
    expectError(await raw(t, 'GET', `/v1/orgs/${org.id}`), 401);
    expectError(await raw(t, 'GET', `/v1/orgs/${org.id}`, { token: 'nope' }), 401);
    expectError(await raw(t, 'POST', '/v1/orgs', { token: t.adminToken, body: { title: 5 } }), 400);
    expectError(await raw(t, 'POST', '/v1/orgs', { token: t.adminToken, rawBody: '{bad' }), 400);
    expectError(await raw(t, 'GET', '/v1/orgs?limit=1001', { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', '/v1/orgs?limit=0', { token: t.adminToken }), 400);
    expectError(await raw(t, 'GET', '/v1/orgs?page=garbage', { token: t.adminToken }), 400);
    expectError(
      await raw(t, 'PATCH', `/v1/orgs/${org.id}`, {
        token: t.adminToken,
        body: { defaultContent: { type: 'site', site: 'nope' } },
      }),
      400,
    );
  });
});
