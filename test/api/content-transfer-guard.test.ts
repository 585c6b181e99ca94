import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asRole, expectError, newUser, ok, raw, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Moving content between and inside organizations needs the organization's
 * say, not only a role on the content: a guest who holds `admin` on one space
 * through an invite link cannot transfer it into an organization of their own
 * (the owning organization would lose it), nor reshuffle the tree; a member
 * with `create` who is not an organization admin cannot transfer content out.
 */

let t: TestServer;
let orgId: string;
let spaceId: string;
let guest: TestUser;
let guestOrgId: string;

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Owner Org' }), 201)).id;
  spaceId = (await ok('createSpace', t.client.orgs.createSpace(orgId, { title: 'Crown jewels' }), 201)).id;
  const link = await ok(
    'createOrganizationInvite',
    t.client.orgs.createOrganizationInvite(orgId, { level: asRole('admin'), space: spaceId }),
    201,
  );
  guest = await newUser(t, 'Space admin guest');
  await ok('joinOrganizationWithInvite', t.clientFor(guest.token).orgs.joinOrganizationWithInvite(orgId, link.id));
  guestOrgId = (
    await ok('createOrganization', t.clientFor(guest.token).orgs.createOrganization({ title: 'Guest Org' }), 201)
  ).id;
});
afterAll(async () => {
  await t?.close();
});

const spaceOrg = async () => (await ok('getSpaceById', t.client.spaces.getSpaceById(spaceId))).organization;

describe('transfers and moves', () => {
  it('refuses a guest with space admin transferring the space into their own organization', async () => {
    // The guest does administer the space…
    const seen = await ok('getSpaceById', t.clientFor(guest.token).spaces.getSpaceById(spaceId));
    expect(seen.permissions.admin).toBe(true);
    // …but the organization does not let it go.
    expectError(
      await raw(t, 'POST', `/v1/spaces/${spaceId}/transfer`, {
        token: guest.token,
        body: { organization: guestOrgId },
      }),
      403,
    );
    expect(await spaceOrg()).toBe(orgId);
  });

  it('refuses a guest with space admin moving the space in the organization tree', async () => {
    const collectionId = (await ok('createCollection', t.client.orgs.createCollection(orgId, { title: 'Shelf' }), 201))
      .id;
    expectError(
      await raw(t, 'POST', `/v1/spaces/${spaceId}/move`, { token: guest.token, body: { parent: collectionId } }),
      403,
    );
    expect((await ok('getSpaceById', t.client.spaces.getSpaceById(spaceId))).parent).toBeUndefined();
  });

  it('lets only organization admins transfer content out, into an organization where they may create', async () => {
    const creator = await newMember(t, orgId, 'create', 'Creator');
    const own = (await ok('createSpace', t.clientFor(creator.token).orgs.createSpace(orgId, { title: 'Mine' }), 201))
      .id;
    const creatorOrg = (
      await ok('createOrganization', t.clientFor(creator.token).orgs.createOrganization({ title: 'Creator Org' }), 201)
    ).id;
    expectError(
      await raw(t, 'POST', `/v1/spaces/${own}/transfer`, { token: creator.token, body: { organization: creatorOrg } }),
      403,
    );
    const collection = (await ok('createCollection', t.client.orgs.createCollection(orgId, { title: 'Box' }), 201)).id;
    expectError(
      await raw(t, 'POST', `/v1/collections/${collection}/transfer`, {
        token: creator.token,
        body: { organization: creatorOrg },
      }),
      403,
    );
    // The organization's admin may, when they may create in the target.
    const adminTarget = (await ok('createOrganization', t.client.orgs.createOrganization({ title: 'Target' }), 201)).id;
    const moved = await raw(t, 'POST', `/v1/spaces/${own}/transfer`, {
      token: t.adminToken,
      body: { organization: adminTarget },
    });
    expect(moved.status).toBe(200);
    expect((moved.body as { organization: string }).organization).toBe(adminTarget);
  });
});
