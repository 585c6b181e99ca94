import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRoleOrGuest } from '@gitbook/api';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, fails, newUser, ok, raw, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';
import { newKeyPair, type KeyPair } from '../helpers/saml-idp';

/** The SSO group of the spec through the official client, each answer validated against GitBook's schemas. */

let t: TestServer;
let orgId: string;
let teamId: string;
let keys: KeyPair;
let editor: TestUser;
let guest: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await startTestServer();
  keys = await newKeyPair();
  orgId = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'SSO Org' }), 201)).id;
  teamId = (await ok('createOrganizationTeam', t.client.orgs.createOrganizationTeam(orgId, { title: 'Staff' }), 201))
    .id;
  editor = await newMember(t, orgId, 'edit', 'Eddie Editor');
  guest = await newMember(t, orgId, null, 'Gus Guest');
  stranger = await newUser(t, 'Stan Stranger');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const configured = () => ({
  label: 'Okta',
  entityID: 'https://idp.example.test/metadata',
  ssoURL: 'https://idp.example.test/sso',
  certificate: keys.cert,
  defaultTeam: teamId,
  defaultRole: 'edit' as MemberRoleOrGuest,
});

describe('SAML providers (SSO group)', () => {
  it('creates, reads, lists, updates and deletes a provider', async () => {
    const created = await ok(
      'createOrganizationSAMLProvider',
      t.client.orgs.createOrganizationSamlProvider(orgId, configured()),
      201,
    );
    expect(created).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      entityID: 'https://idp.example.test/metadata',
      ssoURL: 'https://idp.example.test/sso',
      defaultRole: 'edit',
      status: 'active',
      defaultTeam: { object: 'team', id: teamId, title: 'Staff' },
    });
    // The service provider side points at this server.
    expect(created.service).toEqual({
      entityID: `${t.url}/auth/saml/${created.id}/metadata`,
      acsURL: `${t.url}/auth/saml/${created.id}/acs`,
      startURL: `${t.url}/auth/saml/${created.id}/start`,
    });
    expect(created.urls.location).toBe(`${t.url}/v1/orgs/${orgId}/saml/${created.id}`);

    const got = await ok(
      'getOrganizationSAMLProviderById',
      t.client.orgs.getOrganizationSamlProviderById(orgId, created.id),
    );
    expect(got).toEqual(created);

    const list = await ok(
      'listSAMLProvidersInOrganizationById',
      t.client.orgs.listSamlProvidersInOrganizationById(orgId),
    );
    expect(list.items.map((p) => p.id)).toContain(created.id);

    const updated = await ok(
      'updateOrganizationSAMLProvider',
      t.client.orgs.updateOrganizationSamlProvider(orgId, created.id, { label: 'Okta (prod)', defaultRole: null }),
    );
    expect(updated).toMatchObject({ label: 'Okta (prod)', defaultRole: null, entityID: created.entityID });

    const logins = await ok(
      'listSSOProviderLoginsInOrganization',
      t.clientFor(guest.token).orgs.listSsoProviderLoginsInOrganization(orgId),
    );
    expect(logins.items).toContainEqual({ id: created.id, label: 'Okta (prod)', startURL: created.service.startURL });

    const deleted = await t.client.orgs.deleteOrganizationSamlProvider(orgId, created.id);
    expect(deleted.status).toBe(204);
    const again = await t.client.orgs.deleteOrganizationSamlProvider(orgId, created.id);
    expect(again.status).toBe(204);
    await fails(t.client.orgs.getOrganizationSamlProviderById(orgId, created.id), 404);
  });

  it('a provider with a label only is pending and offers no login until completed', async () => {
    const pending = await ok(
      'createOrganizationSAMLProvider',
      t.client.orgs.createOrganizationSamlProvider(orgId, { label: 'Later' }),
      201,
    );
    expect(pending).toMatchObject({
      status: 'pending',
      ssoURL: 'about:blank',
      entityID: '',
      certificate: '',
      defaultRole: 'read',
    });
    const logins = await t.client.orgs.listSsoProviderLoginsInOrganization(orgId);
    expect(logins.data.items.map((l) => l.id)).not.toContain(pending.id);
    // Starting a sign-in with it is refused with a clear message.
    const start = await raw(t, 'GET', `/auth/saml/${pending.id}/start`, { headers: { accept: 'application/json' } });
    expectError(start, 409, /not fully configured/);

    const done = await ok(
      'updateOrganizationSAMLProvider',
      t.client.orgs.updateOrganizationSamlProvider(orgId, pending.id, {
        entityID: 'https://other.example.test',
        ssoURL: 'https://other.example.test/sso',
        // Bare base64, as IdP metadata shows it.
        certificate: keys.certBody,
      }),
    );
    expect(done.status).toBe('active');
    const after = await t.client.orgs.listSsoProviderLoginsInOrganization(orgId);
    expect(after.data.items.map((l) => l.id)).toContain(pending.id);
  });

  it('serves the service provider metadata for the IdP to import', async () => {
    const p = (await t.client.orgs.createOrganizationSamlProvider(orgId, configured())).data;
    const res = await fetch(p.service.entityID);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/samlmetadata+xml');
    const xml = await res.text();
    expect(xml).toContain(`entityID="${p.service.entityID}"`);
    expect(xml).toContain(`Location="${p.service.acsURL}"`);
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect((await raw(t, 'GET', '/auth/saml/nope/metadata', { headers: { accept: 'application/json' } })).status).toBe(
      404,
    );
  });

  it('refuses bad fields with a clear 400', async () => {
    const bad = async (body: Record<string, unknown>, pattern: RegExp) =>
      expectError(await raw(t, 'POST', `/v1/orgs/${orgId}/saml`, { token: t.adminToken, body }), 400, pattern);
    await bad({ ...configured(), certificate: 'not a certificate' }, /certificate/);
    await bad({ ...configured(), defaultTeam: 'no-such-team' }, /defaultTeam/);
    await bad({ ...configured(), ssoURL: 'javascript:alert(1)' }, /ssoURL/);
    await bad({ ...configured(), label: '' }, /label/);
    await bad({ ...configured(), label: 'x'.repeat(31) }, /label/);
    await bad({ ...configured(), defaultRole: 'owner' }, /defaultRole/);
  });

  it('only organization admins manage providers; members list logins; outsiders see nothing', async () => {
    const p = (await t.client.orgs.createOrganizationSamlProvider(orgId, configured())).data;
    await fails(t.clientFor(editor.token).orgs.listSamlProvidersInOrganizationById(orgId), 403);
    await fails(t.clientFor(editor.token).orgs.getOrganizationSamlProviderById(orgId, p.id), 403);
    await fails(t.clientFor(editor.token).orgs.createOrganizationSamlProvider(orgId, configured()), 403);
    await fails(t.clientFor(editor.token).orgs.updateOrganizationSamlProvider(orgId, p.id, { label: 'Mine' }), 403);
    await fails(t.clientFor(editor.token).orgs.deleteOrganizationSamlProvider(orgId, p.id), 403);
    await ok(
      'listSSOProviderLoginsInOrganization',
      t.clientFor(editor.token).orgs.listSsoProviderLoginsInOrganization(orgId),
    );
    await fails(t.clientFor(stranger.token).orgs.listSsoProviderLoginsInOrganization(orgId), 404);
    await fails(t.clientFor(stranger.token).orgs.getOrganizationSamlProviderById(orgId, p.id), 404);
    // An outsider's DELETE is a quiet 204 and deletes nothing.
    expect((await t.clientFor(stranger.token).orgs.deleteOrganizationSamlProvider(orgId, p.id)).status).toBe(204);
    await ok('getOrganizationSAMLProviderById', t.client.orgs.getOrganizationSamlProviderById(orgId, p.id));
    // Another organization's id does not reach this provider.
    const other = (await t.client.orgs.createOrganization({ title: 'Other' })).data.id;
    await fails(t.client.orgs.getOrganizationSamlProviderById(other, p.id), 404);
  });
});
