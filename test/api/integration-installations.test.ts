import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationInstallation, IntegrationSpaceInstallation } from '@gitbook/api';
import { expectError, newUser, ok, raw, type RawResponse, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * GitBook's integration installations (in organizations, on spaces, on sites) through the
 * official client, every answer validated against GitBook's schemas: who may install where, the
 * integration's target and visibility, configurations checked against its `configurations`,
 * statuses, external ids, `all` selections, lists across organizations, and the integration's
 * secrets never in an answer. Integrations are published through publishIntegration (its own suite
 * is integrations.test.ts).
 */

let t: TestServer;
let publisherOrg = '';
let customerOrg = '';
/** An admin of the customer organization only. */
let customerAdmin: TestUser;
/** A `read` member of the customer organization, admin of `firstSpace` alone (through a space invite). */
let spaceAdmin: TestUser;
/** A `create` member of the customer organization. */
let creator: TestUser;
/** An admin of the publishing organization only. */
let publisherAdmin: TestUser;
/** A `read` member of the publishing organization. */
let publisherReader: TestUser;
let outsider: TestUser;
let firstSpace = '';
let secondSpace = '';
let publisherSpace = '';
let siteId = '';

const SECRET = 'super-secret-value-0123456789';

/** Every answer body, searched for the integration's secrets at the end. */
const answers: unknown[] = [];
const seen = <T>(body: T): T => {
  answers.push(body);
  return body;
};
const call = async (method: string, path: string, token: string, body?: unknown): Promise<RawResponse> => {
  const res = await raw(t, method, `/v1${path}`, { token, body });
  answers.push(res.body);
  return res;
};

const ACCOUNT = {
  properties: {
    token: { type: 'string', title: 'API token' },
    mode: { type: 'string', enum: ['fast', 'slow'], default: 'fast' },
    retries: { type: 'number' },
    verbose: { type: 'boolean', default: false },
    connect: { type: 'button', callback_url: '/connect', button_text: 'Connect' },
  },
  required: ['token'],
};
const SPACE = { properties: { channel: { type: 'string' } }, required: ['channel'] };
const SITE = { properties: { trackingId: { type: 'string', default: 'UA-1' } } };

/** Publishes an integration of `organizationId` (as the instance admin, an admin there), with secrets. */
async function publish(name: string, organizationId: string, manifest: Record<string, unknown>) {
  const res = await raw(t, 'POST', `/v1/integrations/${name}`, {
    token: t.adminToken,
    body: {
      title: `Title of ${name}`,
      description: 'An integration of the installation tests',
      scopes: [],
      script: 'export default {}',
      organization: organizationId,
      secrets: { API_KEY: SECRET },
      ...manifest,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

const clientOf = (user: TestUser | undefined) => (user ? t.clientFor(user.token) : t.client);

const install = (name: string, organization: string, user?: TestUser) =>
  ok('installIntegration', clientOf(user).integrations.installIntegration(name, { organization }), 201).then(seen);

beforeAll(async () => {
  t = await startTestServer();
  publisherOrg = (await t.client.orgs.createOrganization({ title: 'Publisher' })).data.id;
  customerOrg = (await t.client.orgs.createOrganization({ title: 'Customer' })).data.id;
  customerAdmin = await newMember(t, customerOrg, 'admin', 'Customer admin');
  spaceAdmin = await newMember(t, customerOrg, 'read', 'Space admin');
  creator = await newMember(t, customerOrg, 'create', 'Creator');
  publisherAdmin = await newMember(t, publisherOrg, 'admin', 'Publisher admin');
  publisherReader = await newMember(t, publisherOrg, 'read', 'Publisher reader');
  outsider = await newUser(t, 'Outsider');
  firstSpace = (await t.client.orgs.createSpace(customerOrg, { title: 'First' })).data.id;
  secondSpace = (await t.client.orgs.createSpace(customerOrg, { title: 'Second' })).data.id;
  publisherSpace = (await t.client.orgs.createSpace(publisherOrg, { title: 'Publisher space' })).data.id;
  await t.client.spaces.inviteToSpace(firstSpace, { role: 'admin' as never, users: [spaceAdmin.id] });
  siteId = (await t.client.orgs.createSite(customerOrg, { title: 'Customer docs' })).data.id;

  const configurations = { account: ACCOUNT, space: SPACE, site: SITE };
  await publish('acme', publisherOrg, { visibility: 'public', target: 'all', configurations });
  await publish('acme-private', publisherOrg, { visibility: 'private', target: 'all' });
  await publish('acme-unlisted', publisherOrg, { visibility: 'unlisted', target: 'all' });
  await publish('acme-org-only', publisherOrg, { visibility: 'public', target: 'organization' });
  await publish('acme-spaces', publisherOrg, { visibility: 'public', target: 'space' });
  await publish('acme-sites', publisherOrg, { visibility: 'public', target: 'site' });
});
afterAll(async () => {
  await t?.close();
});

describe('installing in an organization', () => {
  let installation: IntegrationInstallation;

  it("installs for the organization's admins, pending until the required configuration is set", async () => {
    const res = await raw(t, 'POST', '/v1/integrations/acme/installations', {
      token: customerAdmin.token,
      body: { organization: customerOrg },
    });
    expect(res.status).toBe(201);
    installation = seen(res.body as IntegrationInstallation);
    expect(res.headers.get('location')).toBe(installation.urls.location);
    expect(installation).toMatchObject({
      status: 'pending',
      space_selection: 'selected',
      site_selection: 'selected',
      spaces: 0,
      configuration: { mode: 'fast', verbose: false },
      externalIds: [],
      target: { organization: customerOrg },
    });
    expect(installation.urls.location).toBe(`${t.url}/v1/integrations/acme/installations/${installation.id}`);
    expect(installation.urls.publicContentEndpoint).toBe(installation.urls.publicEndpoint);
    const got = await ok(
      'getIntegrationInstallationById',
      clientOf(customerAdmin).integrations.getIntegrationInstallationById('acme', installation.id),
    );
    expect(got).toEqual(installation);
  });

  it('refuses a second installation, other roles, outsiders, unknown names and bad bodies', async () => {
    const path = '/integrations/acme/installations';
    expectError(await call('POST', path, customerAdmin.token, { organization: customerOrg }), 409, /already installed/);
    expectError(await call('POST', path, creator.token, { organization: customerOrg }), 403, /admin/);
    expectError(await call('POST', path, outsider.token, { organization: customerOrg }), 404);
    expectError(
      await call('POST', '/integrations/nobody-made-this/installations', t.adminToken, { organization: customerOrg }),
      404,
      /Integration/,
    );
    expectError(await call('POST', path, t.adminToken, { organization: 'unknownorg' }), 404, /Organization/);
    expectError(await call('POST', path, t.adminToken, {}), 400);
    expectError(await call('POST', path, t.adminToken, { organization: customerOrg, extra: 1 }), 400);
    expectError(
      await call('POST', '/integrations/bad%20name/installations', t.adminToken, { organization: customerOrg }),
      400,
    );
  });

  it('installs a private integration only in its own organization; unlisted ones anywhere', async () => {
    // The instance admin sees the private integration (admin of its organization): 403 elsewhere.
    expectError(
      await call('POST', '/integrations/acme-private/installations', t.adminToken, { organization: customerOrg }),
      403,
      /private/,
    );
    // The customer's admin does not even see it.
    expectError(
      await call('POST', '/integrations/acme-private/installations', customerAdmin.token, {
        organization: customerOrg,
      }),
      404,
      /Integration/,
    );
    await install('acme-private', publisherOrg, publisherAdmin);
    await install('acme-unlisted', customerOrg, customerAdmin);
  });

  it("checks configurations against the integration's account properties", async () => {
    const path = `/integrations/acme/installations/${installation.id}`;
    const patch = (body: unknown) => call('PATCH', path, customerAdmin.token, body);
    expectError(await patch({ configuration: { token: 'abc', retries: '3' } }), 400, /"retries" must be a number/);
    expectError(
      await patch({ configuration: { token: 'abc', mode: 'medium' } }),
      400,
      /"mode" must be one of "fast", "slow"/,
    );
    expectError(
      await patch({ configuration: { token: 7, verbose: 'yes' } }),
      400,
      /"token" must be a string.*"verbose" must be a boolean/,
    );
    expectError(await patch({ configuration: { retries: 2 } }), 400, /required property "token" missing/);
    expectError(await patch({ configuration: { token: 'abc', connect: true } }), 400, /button/);
    expectError(await patch({ configuration: 'token' }), 400);
    expectError(await patch({ externalIds: ['1', '2', '3', '4', '5', '6'] }), 400);
    expectError(await patch({ space_selection: 'some' }), 400);
    expectError(await patch({ status: 'active' }), 400);
    expectError(await patch({ configuration: { token: 'abc', blob: 'x'.repeat(70_000) } }), 400, /larger than/);

    const updated = await ok(
      'updateIntegrationInstallation',
      clientOf(customerAdmin).integrations.updateIntegrationInstallation('acme', installation.id, {
        configuration: { token: 'abc', retries: 3, mode: null, oauth: { refresh: 'r' } },
        externalIds: ['team-1', 'team-2'],
      }),
    ).then(seen);
    // Replaced as a whole: the default comes back for what was unset, undeclared keys are kept.
    expect(updated.configuration).toEqual({
      token: 'abc',
      retries: 3,
      mode: 'fast',
      verbose: false,
      oauth: { refresh: 'r' },
    });
    expect(updated).toMatchObject({ status: 'active', externalIds: ['team-1', 'team-2'] });
    // An empty PATCH changes nothing.
    const same = await ok(
      'updateIntegrationInstallation',
      clientOf(customerAdmin).integrations.updateIntegrationInstallation('acme', installation.id, {}),
    );
    expect(same.configuration).toEqual(updated.configuration);
    expect(same.externalIds).toEqual(['team-1', 'team-2']);
  });

  it('reads and changes installations for the right callers only', async () => {
    const path = `/integrations/acme/installations/${installation.id}`;
    // The publisher's admins read it (they list the integration's installations anyway).
    await ok(
      'getIntegrationInstallationById',
      clientOf(publisherAdmin).integrations.getIntegrationInstallationById('acme', installation.id),
    );
    expectError(await call('GET', path, creator.token), 403);
    expectError(await call('GET', path, outsider.token), 404);
    expectError(await call('GET', path, publisherReader.token), 404);
    expectError(await call('PATCH', path, publisherAdmin.token, { externalIds: [] }), 404);
    expectError(await call('PATCH', path, creator.token, { externalIds: [] }), 403);
    expectError(await call('GET', '/integrations/acme-unlisted/installations/' + installation.id, t.adminToken), 404);
    expectError(await call('GET', '/integrations/acme/installations/unknowninstallation', t.adminToken), 404);
  });

  it("lists an integration's installations for its publisher's admins, by external id and page", async () => {
    const other = await install('acme', publisherOrg);
    const all = await ok(
      'listIntegrationInstallations',
      clientOf(publisherAdmin).integrations.listIntegrationInstallations('acme'),
    ).then(seen);
    expect(all.items.map((i) => i.id)).toEqual([installation.id, other.id]);
    expect(all.count).toBe(2);
    const byExternalId = await ok(
      'listIntegrationInstallations',
      clientOf(publisherAdmin).integrations.listIntegrationInstallations('acme', { externalId: 'team-2' }),
    );
    expect(byExternalId.items.map((i) => i.id)).toEqual([installation.id]);
    const first = await ok(
      'listIntegrationInstallations',
      clientOf(publisherAdmin).integrations.listIntegrationInstallations('acme', { limit: 1 }),
    );
    expect(first.items.map((i) => i.id)).toEqual([installation.id]);
    const second = await ok(
      'listIntegrationInstallations',
      clientOf(publisherAdmin).integrations.listIntegrationInstallations('acme', { limit: 1, page: first.next!.page }),
    );
    expect(second.items.map((i) => i.id)).toEqual([other.id]);
    expect(second.next).toBeUndefined();
    expectError(await call('GET', '/integrations/acme/installations', customerAdmin.token), 403, /publishes/);
    expectError(await call('GET', '/integrations/acme/installations', publisherReader.token), 403, /admin/);
    // A private integration is unknown to who may not see it.
    expectError(await call('GET', '/integrations/acme-private/installations', customerAdmin.token), 404, /Integration/);
    expectError(await call('GET', '/integrations/acme/installations?page=garbage', publisherAdmin.token), 400);
    expect(
      await ok('uninstallIntegration', t.client.integrations.uninstallIntegration('acme', other.id), 205),
    ).toBeFalsy();
  });

  it("tells an organization's members the status of an integration there", async () => {
    const reader = await newMember(t, customerOrg, 'read');
    const status = await ok(
      'getOrganizationIntegrationStatus',
      clientOf(reader).orgs.getOrganizationIntegrationStatus(customerOrg, 'acme'),
    );
    expect(status).toEqual({ status: 'active' });
    expectError(
      await call('GET', `/orgs/${customerOrg}/integrations/acme-spaces/installation_status`, reader.token),
      404,
      /Installation/,
    );
    expectError(
      await call('GET', `/orgs/${customerOrg}/integrations/acme-private/installation_status`, reader.token),
      404,
      /Integration/,
    );
    expectError(await call('GET', `/orgs/${customerOrg}/integrations/acme/installation_status`, outsider.token), 404);
    const guest = await newMember(t, customerOrg, null);
    expectError(await call('GET', `/orgs/${customerOrg}/integrations/acme/installation_status`, guest.token), 403);
  });
});

describe('installing on spaces', () => {
  let installationId = '';
  const base = () => `/integrations/acme/installations/${installationId}/spaces`;

  beforeAll(async () => {
    installationId = (await t.client.integrations.listIntegrationInstallations('acme')).data.items.find(
      (i) => i.target.organization === customerOrg,
    )!.id;
  });

  it("installs on a space for the space's admins, who need no organization role", async () => {
    const res = await raw(t, 'POST', `/v1${base()}?extended=true`, {
      token: spaceAdmin.token,
      body: { space: firstSpace },
    });
    expect(res.status).toBe(201);
    const installed = seen(res.body as IntegrationSpaceInstallation);
    expect(res.headers.get('location')).toBe(installed.urls.location);
    expect(installed).toMatchObject({
      integration: 'acme',
      installation: installationId,
      status: 'pending',
      configuration: {},
      externalIds: [],
      space: { object: 'space', id: firstSpace, permissions: { admin: true } },
    });
    expect(installed.urls.location).toBe(`${t.url}/v1${base()}/${firstSpace}`);
    const got = await ok(
      'getIntegrationSpaceInstallation',
      clientOf(spaceAdmin).integrations.getIntegrationSpaceInstallation('acme', installationId, firstSpace),
    );
    expect(got.space).toBe(firstSpace);
  });

  it('refuses a second installation, other spaces, other organizations and other targets', async () => {
    expectError(await call('POST', base(), spaceAdmin.token, { space: firstSpace }), 409);
    expectError(await call('POST', base(), spaceAdmin.token, { space: secondSpace }), 403, /admin/);
    expectError(await call('POST', base(), outsider.token, { space: secondSpace }), 404);
    expectError(await call('POST', base(), t.adminToken, { space: publisherSpace }), 400, /organization/);
    expectError(await call('POST', base(), t.adminToken, { space: 'unknownspace' }), 404, /Space/);
    expectError(await call('POST', base(), t.adminToken, { spaceId: firstSpace }), 400);
    const orgOnly = await install('acme-org-only', customerOrg, customerAdmin);
    expectError(
      await call('POST', `/integrations/acme-org-only/installations/${orgOnly.id}/spaces`, customerAdmin.token, {
        space: firstSpace,
      }),
      400,
      /cannot be installed on spaces: its target is "organization"/,
    );
    expectError(
      await call('PATCH', `/integrations/acme-org-only/installations/${orgOnly.id}`, customerAdmin.token, {
        space_selection: 'all',
      }),
      400,
      /space_selection/,
    );
  });

  it("checks configurations against the integration's space properties", async () => {
    const path = `${base()}/${firstSpace}`;
    expectError(
      await call('PATCH', path, spaceAdmin.token, { configuration: { channel: 1 } }),
      400,
      /"channel" must be a string/,
    );
    expectError(await call('PATCH', path, spaceAdmin.token, { configuration: {} }), 400, /"channel" missing/);
    expectError(await call('PATCH', path, creator.token, { configuration: { channel: '#docs' } }), 403);
    const updated = await ok(
      'updateIntegrationSpaceInstallation',
      clientOf(spaceAdmin).integrations.updateIntegrationSpaceInstallation('acme', installationId, firstSpace, {
        configuration: { channel: '#docs' },
        externalIds: ['channel-1'],
      }),
    ).then(seen);
    expect(updated).toMatchObject({
      status: 'active',
      configuration: { channel: '#docs' },
      externalIds: ['channel-1'],
    });
    expectError(await call('GET', `${base()}/${secondSpace}`, customerAdmin.token), 404, /Space installation/);
  });

  it('covers every space of the organization with space_selection "all", and only the chosen ones after', async () => {
    const select = (selection: 'all' | 'selected') =>
      ok(
        'updateIntegrationInstallation',
        clientOf(customerAdmin).integrations.updateIntegrationInstallation('acme', installationId, {
          space_selection: selection as never,
        }),
      );
    const list = () =>
      ok(
        'listIntegrationInstallationSpaces',
        clientOf(customerAdmin).integrations.listIntegrationInstallationSpaces('acme', installationId),
      ).then(seen);
    expect((await list()).items.map((i) => i.space)).toEqual([firstSpace]);
    expect((await select('all')).spaces).toBe(2);
    const covered = await list();
    expect(covered.items.map((i) => [i.space, i.status, i.configuration])).toEqual([
      [firstSpace, 'active', { channel: '#docs' }],
      [secondSpace, 'pending', {}],
    ]);
    expectError(await call('POST', base(), customerAdmin.token, { space: secondSpace }), 409, /every space/);
    expectError(await call('DELETE', `${base()}/${secondSpace}`, customerAdmin.token), 400, /space_selection/);
    // A covered space is configured like any other, and keeps its own row.
    await ok(
      'updateIntegrationSpaceInstallation',
      clientOf(customerAdmin).integrations.updateIntegrationSpaceInstallation('acme', installationId, secondSpace, {
        configuration: { channel: '#second' },
      }),
    );
    // A space in the trash is left out of lists.
    const trashed = (await t.client.orgs.createSpace(customerOrg, { title: 'Trashed' })).data.id;
    expect((await list()).count).toBe(3);
    await t.client.spaces.deleteSpaceById(trashed);
    expect((await list()).count).toBe(2);
    expect((await select('selected')).spaces).toBe(2);
    await ok(
      'uninstallIntegrationFromSpace',
      clientOf(customerAdmin).integrations.uninstallIntegrationFromSpace('acme', installationId, secondSpace),
      205,
    );
    expect((await list()).items.map((i) => i.space)).toEqual([firstSpace]);
  });

  it("lists an integration's spaces everywhere for its publisher's admins, as Space objects with `extended`", async () => {
    const list = await ok(
      'listIntegrationSpaceInstallations',
      clientOf(publisherAdmin).integrations.listIntegrationSpaceInstallations('acme', {
        externalId: 'channel-1',
        extended: true,
      }),
    ).then(seen);
    expect(list.items).toHaveLength(1);
    // The publisher's admin has no role on the customer's space: it is shown without permissions.
    expect(list.items[0]!.space).toMatchObject({ id: firstSpace, permissions: { view: false, admin: false } });
    const none = await ok(
      'listIntegrationSpaceInstallations',
      clientOf(publisherAdmin).integrations.listIntegrationSpaceInstallations('acme', { externalId: 'nothing' }),
    );
    expect(none).toEqual({ items: [], count: 0 });
    expectError(await call('GET', '/integrations/acme/spaces', customerAdmin.token), 403);
    expectError(await call('GET', '/integrations/acme-private/sites', customerAdmin.token), 404);
    expectError(await call('GET', '/integrations/acme/spaces?extended=maybe', publisherAdmin.token), 400);
  });

  it('uninstalls from a space: 205, then 204; 403 for who sees the space but is no admin of it', async () => {
    const path = `${base()}/${firstSpace}`;
    expect((await call('DELETE', path, creator.token)).status).toBe(403);
    expect((await call('DELETE', path, outsider.token)).status).toBe(204);
    await ok(
      'uninstallIntegrationFromSpace',
      clientOf(spaceAdmin).integrations.uninstallIntegrationFromSpace('acme', installationId, firstSpace),
      205,
    );
    await ok(
      'uninstallIntegrationFromSpace',
      clientOf(spaceAdmin).integrations.uninstallIntegrationFromSpace('acme', installationId, firstSpace),
      204,
    );
    expectError(await call('GET', path, spaceAdmin.token), 404);
  });
});

describe('installing on sites', () => {
  let installationId = '';
  const base = () => `/integrations/acme/installations/${installationId}/sites`;

  beforeAll(async () => {
    installationId = (await t.client.integrations.listIntegrationInstallations('acme')).data.items.find(
      (i) => i.target.organization === customerOrg,
    )!.id;
  });

  it("installs on a site for the organization's admins, with the site properties' defaults", async () => {
    expectError(await call('POST', base(), creator.token, { siteId }), 403, /install integrations on this site/);
    expectError(await call('POST', base(), outsider.token, { siteId }), 404);
    expectError(await call('POST', base(), customerAdmin.token, { siteId: 'unknownsite' }), 404, /Site/);
    const installed = await ok(
      'installIntegrationOnSite',
      clientOf(customerAdmin).integrations.installIntegrationOnSite(
        'acme',
        installationId,
        { siteId },
        { extended: true },
      ),
      201,
    ).then(seen);
    expect(installed).toMatchObject({
      status: 'active',
      configuration: { trackingId: 'UA-1' },
      site: { object: 'site', id: siteId },
    });
    expectError(await call('POST', base(), customerAdmin.token, { siteId }), 409);
  });

  it('reads, configures, lists and uninstalls site installations', async () => {
    const updated = await ok(
      'updateIntegrationSiteInstallation',
      clientOf(customerAdmin).integrations.updateIntegrationSiteInstallation('acme', installationId, siteId, {
        configuration: { trackingId: 'UA-2' },
        externalIds: ['property-1'],
      }),
    ).then(seen);
    expect(updated).toMatchObject({ configuration: { trackingId: 'UA-2' }, site: siteId });
    expectError(
      await call('PATCH', `${base()}/${siteId}`, customerAdmin.token, { configuration: { trackingId: false } }),
      400,
    );
    const got = await ok(
      'getIntegrationSiteInstallation',
      clientOf(customerAdmin).integrations.getIntegrationSiteInstallation('acme', installationId, siteId),
    );
    expect(got).toEqual(updated);
    const ofInstallation = await ok(
      'listIntegrationInstallationSites',
      clientOf(customerAdmin).integrations.listIntegrationInstallationSites('acme', installationId, { extended: true }),
    );
    expect(ofInstallation.items.map((i) => (i.site as { id: string }).id)).toEqual([siteId]);
    const everywhere = await ok(
      'listIntegrationSiteInstallations',
      clientOf(publisherAdmin).integrations.listIntegrationSiteInstallations('acme', { externalId: 'property-1' }),
    );
    expect(everywhere.items.map((i) => i.site)).toEqual([siteId]);
    const sitesOnly = await install('acme-sites', customerOrg, customerAdmin);
    expectError(
      await call('POST', `/integrations/acme-sites/installations/${sitesOnly.id}/spaces`, customerAdmin.token, {
        space: firstSpace,
      }),
      400,
      /target is "site"/,
    );
    const spacesOnly = await install('acme-spaces', customerOrg, customerAdmin);
    expectError(
      await call('POST', `/integrations/acme-spaces/installations/${spacesOnly.id}/sites`, customerAdmin.token, {
        siteId,
      }),
      400,
      /target is "space"/,
    );
    expect((await call('DELETE', `${base()}/${siteId}`, creator.token)).status).toBe(403);
    await ok(
      'uninstallIntegrationFromSite',
      clientOf(customerAdmin).integrations.uninstallIntegrationFromSite('acme', installationId, siteId),
      205,
    );
    await ok(
      'uninstallIntegrationFromSite',
      clientOf(customerAdmin).integrations.uninstallIntegrationFromSite('acme', installationId, siteId),
      204,
    );
  });
});

describe('which integrations are installed where', () => {
  let acmeId = '';
  let spacesId = '';

  beforeAll(async () => {
    const installed = (await t.client.integrations.listIntegrationInstallations('acme')).data.items;
    acmeId = installed.find((i) => i.target.organization === customerOrg)!.id;
    spacesId = (await t.client.integrations.listIntegrationInstallations('acme-spaces')).data.items.find(
      (i) => i.target.organization === customerOrg,
    )!.id;
    await t.client.integrations.installIntegrationOnSpace('acme', acmeId, { space: firstSpace });
    await t.client.integrations.installIntegrationOnSpace('acme-spaces', spacesId, { space: firstSpace });
    await t.client.integrations.installIntegrationOnSite('acme', acmeId, { siteId });
  });

  it('lists the integrations of a space for who sees it, by name or title', async () => {
    const reader = await newMember(t, customerOrg, 'read');
    const all = await ok('listSpaceIntegrations', clientOf(reader).spaces.listSpaceIntegrations(firstSpace)).then(seen);
    expect(all.items.map((i) => i.name)).toEqual(['acme', 'acme-spaces']);
    expect(all.items[0]).toMatchObject({ object: 'integration', owner: { id: publisherOrg } });
    const searched = await ok(
      'listSpaceIntegrations',
      clientOf(reader).spaces.listSpaceIntegrations(firstSpace, { search: 'ACME-SP' }),
    );
    expect(searched.items.map((i) => i.name)).toEqual(['acme-spaces']);
    const none = await ok('listSpaceIntegrations', clientOf(reader).spaces.listSpaceIntegrations(secondSpace));
    expect(none.items).toEqual([]);
    expectError(await call('GET', `/spaces/${firstSpace}/integrations`, outsider.token), 404);
  });

  it('lists the integrations of a site for who sees it', async () => {
    const list = await ok(
      'listSiteIntegrations',
      clientOf(creator).orgs.listSiteIntegrations(customerOrg, siteId),
    ).then(seen);
    expect(list.items.map((i) => i.name)).toEqual(['acme']);
    expectError(await call('GET', `/orgs/${customerOrg}/sites/unknownsite/integrations`, creator.token), 404);
    expectError(await call('GET', `/orgs/${customerOrg}/sites/${siteId}/integrations`, outsider.token), 404);
  });

  it("gives an organization's installation statuses, in it, on its spaces and on its sites", async () => {
    const statuses = (query?: object) =>
      ok(
        'listOrganizationIntegrationsStatus',
        clientOf(creator).orgs.listOrganizationIntegrationsStatus(customerOrg, query as never),
      ).then(seen);
    const inOrg = await statuses();
    expect(inOrg.items.map((i) => [i.integration.name, i.status, i.target])).toEqual(
      ['acme', 'acme-unlisted', 'acme-org-only', 'acme-sites', 'acme-spaces'].map((name) => [
        name,
        'active',
        { type: 'organization', organizationId: customerOrg },
      ]),
    );
    // Folio: the installation's id for those who manage installations (to configure or uninstall it), not for others.
    expect(inOrg.items.every((i) => !('installation' in i))).toBe(true);
    const asAdmin = await ok(
      'listOrganizationIntegrationsStatus',
      clientOf(customerAdmin).orgs.listOrganizationIntegrationsStatus(customerOrg),
    ).then(seen);
    for (const item of asAdmin.items) {
      const id = (item as { installation?: { id: string } }).installation?.id;
      expect(id).toBeTruthy();
      const read = await clientOf(customerAdmin).integrations.getIntegrationInstallationById(
        item.integration.name,
        id!,
      );
      expect(read.data.target).toEqual({ organization: customerOrg });
    }
    const onSpaces = await statuses({ target: 'space' });
    expect(onSpaces.items.map((i) => [i.integration.name, i.status, i.target])).toEqual([
      ['acme', 'pending', { type: 'space', spaceId: firstSpace }],
      ['acme-spaces', 'active', { type: 'space', spaceId: firstSpace }],
    ]);
    expect((await statuses({ target: 'space', space: secondSpace })).items).toEqual([]);
    const onSites = await statuses({ target: 'site', site: siteId, limit: 1 });
    expect(onSites.items.map((i) => [i.integration.name, i.target])).toEqual([['acme', { type: 'site', siteId }]]);
    const base = `/orgs/${customerOrg}/integrations/installations-status`;
    expectError(await call('GET', `${base}?space=${firstSpace}`, creator.token), 400, /target "space"/);
    expectError(await call('GET', `${base}?target=space&space=${publisherSpace}`, t.adminToken), 404);
    expectError(await call('GET', `${base}?target=site&site=unknownsite`, creator.token), 404);
    expectError(await call('GET', `${base}?target=everything`, creator.token), 400);
    expectError(await call('GET', base, outsider.token), 404);
    const guest = await newMember(t, customerOrg, null);
    expectError(await call('GET', base, guest.token), 403);
  });
});

describe('uninstalling', () => {
  it('removes the installation with its space and site installations: 205, then 204', async () => {
    const installation = await install('acme-unlisted', publisherOrg);
    const sitePath = `/integrations/acme-unlisted/installations/${installation.id}`;
    await ok(
      'installIntegrationOnSpace',
      t.client.integrations.installIntegrationOnSpace('acme-unlisted', installation.id, { space: publisherSpace }),
      201,
    );
    expect((await call('DELETE', sitePath, publisherReader.token)).status).toBe(403);
    expect((await call('DELETE', sitePath, outsider.token)).status).toBe(204);
    await ok('uninstallIntegration', t.client.integrations.uninstallIntegration('acme-unlisted', installation.id), 205);
    await ok('uninstallIntegration', t.client.integrations.uninstallIntegration('acme-unlisted', installation.id), 204);
    expectError(await call('GET', `${sitePath}/spaces/${publisherSpace}`, t.adminToken), 404);
    const left = await t.server.ctx.db.query(
      'SELECT 1 FROM integration_space_installations WHERE installation_id = $1',
      [installation.id],
    );
    expect(left).toHaveLength(0);
  });

  it('goes with the integration when it is unpublished', async () => {
    const installation = await install('acme-spaces', publisherOrg);
    await ok('unpublishIntegration', t.client.integrations.unpublishIntegration('acme-spaces'), 205);
    expectError(await call('GET', `/integrations/acme-spaces/installations/${installation.id}`, t.adminToken), 404);
    const rows = await t.server.ctx.db.query('SELECT 1 FROM integration_installations WHERE id = $1', [
      installation.id,
    ]);
    expect(rows).toHaveLength(0);
  });
});

describe('secrets', () => {
  it("never shows the integration's secrets, sealed or not, in any answer", () => {
    expect(answers.length).toBeGreaterThan(40);
    const text = JSON.stringify(answers);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('API_KEY');
    expect(text).not.toMatch(/secrets?_sealed|"secrets"|"script"/);
  });
});
