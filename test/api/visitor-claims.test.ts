import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, SignJWT } from 'jose';
import { SiteVisibility } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { fails, newUser, ok } from '../helpers/api';
import { newMember } from '../helpers/members';
import { organizationVisitorKey, VISITOR_CLAIMS_TTL_S } from '../../sync-server/identity/visitor-claims';
import { MAX_VISITOR_TOKEN_LIFETIME_S } from '../../sync-server/published-site/visitor';

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

describe('visitor token lifetime', () => {
  const nowS = () => Math.floor(Date.now() / 1000);
  const siteKey = async () => (await t.client.orgs.getSitePublishingAuthById(orgId, siteId)).data.privateKey;
  /** A token signed with `key`, with `iat` and `exp` as given (left out when undefined). */
  const token = (key: string, times: { iat?: number; exp?: number }) => {
    const jwt = new SignJWT({ sub: 'visitor-1' }).setProtectedHeader({ alg: 'HS256' });
    if (times.iat !== undefined) jwt.setIssuedAt(times.iat);
    if (times.exp !== undefined) jwt.setExpirationTime(times.exp);
    return jwt.sign(new TextEncoder().encode(key));
  };

  it('refuses a token without exp, signed with the site key or the organization key', async () => {
    for (const key of [await siteKey(), await organizationVisitorKey(t.server.ctx.db, orgId)]) {
      const page = await sitePage(siteId, await token(key, { iat: nowS() }));
      expect(page.status).toBe(403);
      expect(page.body).toContain('no valid expiry time (exp)');
    }
  });

  it('refuses a token valid for more than a day, from iat or from now (a future iat does not help)', async () => {
    const key = await siteKey();
    const now = nowS();
    const year = await token(key, { iat: now, exp: now + 365 * 86_400 });
    const noIat = await token(key, { exp: now + 2 * 86_400 });
    const futureIat = await token(key, { iat: now + 2 * 86_400 - 3600, exp: now + 2 * 86_400 });
    const longAgo = await token(key, { iat: now - 2 * 86_400, exp: now + 3600 });
    for (const jwt of [year, noIat, futureIat, longAgo]) {
      const page = await sitePage(siteId, jwt);
      expect(page.status).toBe(403);
      expect(page.body).toContain('valid for too long');
    }
  });

  it('accepts a token that expires within the day, and sets its cookie for its remaining lifetime only', async () => {
    const now = nowS();
    const jwt = await token(await siteKey(), { iat: now, exp: now + 12 * 3600 });
    const res = await fetch(`${t.url}/sites/${siteId}/?jwt_token=${jwt}`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Private Handbook docs.');
    const maxAge = Number(/Max-Age=(\d+)/.exec(res.headers.get('set-cookie') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(12 * 3600);
    // Members' claims (an hour) stay well within the cap.
    expect(VISITOR_CLAIMS_TTL_S).toBeLessThan(MAX_VISITOR_TOKEN_LIFETIME_S);
  });
});
