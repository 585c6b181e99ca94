import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, SignJWT } from 'jose';
import { SiteVisibility } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { fails, newUser, ok } from '../helpers/api';
import { newMember } from '../helpers/members';
import { organizationVisitorKey } from '../../sync-server/identity/visitor-claims';

/**
 * `POST /v1/orgs/{id}/ping` (updateOrganizationMemberLastSeenAt) hands a
 * member visitor claims: a JWT that the organization's visitor-auth sites
 * accept, and no other organization's.
 */

let t: TestServer;
let orgId: string;
let siteId: string;
let otherSiteId: string;

async function publishedVisitorSite(organizationId: string, title: string): Promise<string> {
  const space = (await t.client.orgs.createSpace(organizationId, { title })).data.id;
  await t.server.ctx.hub.change(
    spaceContentDoc(space),
    (doc) => void new ContentDoc(doc).createPage({ title: 'Home', markdown: `Private ${title} docs.\n` }),
  );
  await t.server.ctx.snapshots.revise(space);
  const site = (
    await t.client.orgs.createSite(organizationId, { title, visibility: SiteVisibility.VisitorAuth, spaces: [space] })
  ).data.id;
  await t.client.orgs.publishSite(organizationId, site);
  return site;
}

const sitePage = async (site: string, token: string) => {
  const res = await fetch(`${t.url}/sites/${site}/?jwt_token=${token}`, { redirect: 'manual' });
  return { status: res.status, body: await res.text() };
};

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Claims Org' })).data.id;
  const otherOrg = (await t.client.orgs.createOrganization({ title: 'Other Org' })).data.id;
  siteId = await publishedVisitorSite(orgId, 'Handbook');
  otherSiteId = await publishedVisitorSite(otherOrg, 'Elsewhere');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('visitor claims of members', () => {
  it("ping returns a JWT that opens the organization's visitor-auth sites", async () => {
    const reader = await newMember(t, orgId, 'read', 'Rita Reader');
    const body = await ok(
      'updateOrganizationMemberLastSeenAt',
      t.clientFor(reader.token).orgs.updateOrganizationMemberLastSeenAt(orgId),
    );
    const token = (body as { serviceVisitorClaims?: string }).serviceVisitorClaims!;
    expect(typeof token).toBe('string');
    expect(body.gitbookVisitorClaims).toBe(token);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ sub: reader.id, email: reader.email, organization: orgId, role: 'read' });
    expect(claims.exp! - claims.iat!).toBe(3600);

    const page = await sitePage(siteId, token);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Private Handbook docs.');
    // Another organization's site does not take it.
    expect((await sitePage(otherSiteId, token)).status).toBe(403);
  });

  it('refuses an expired member token, and non-members cannot ping', async () => {
    // A token signed with the organization's key, expired an hour ago (as one from an old ping would be).
    const key = await organizationVisitorKey(t.server.ctx.db, orgId);
    const expired = await new SignJWT({ organization: orgId })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(key));
    const page = await sitePage(siteId, expired);
    expect(page.status).toBe(403);
    expect(page.body).toContain('expired');
    const stranger = await newUser(t, 'Stan Stranger');
    await fails(t.clientFor(stranger.token).orgs.updateOrganizationMemberLastSeenAt(orgId), 404);
  });
});
