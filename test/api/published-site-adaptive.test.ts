import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import { SiteVisibility } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { startTestServer, type TestServer } from '../helpers/server';
import { expectError, ok, raw } from '../helpers/api';

/** Visitor-auth sites (JWT) and adaptive content: the visitor schema, conditions and what visitors see. */
let t: TestServer;
let orgId: string;
let siteId: string;
let key: string;
let betaSectionId: string;

async function space(title: string, markdown: string) {
  const id = (await t.client.orgs.createSpace(orgId, { title })).data.id;
  await t.server.ctx.hub.change(
    spaceContentDoc(id),
    (doc) => void new ContentDoc(doc).createPage({ title: `${title} home`, markdown }),
  );
  await t.server.ctx.snapshots.revise(id);
  return id;
}

const jwt = (claims: Record<string, unknown>, secret = key, expiresIn = '1h') =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(secret));
const page = async (path: string, cookie?: string) => {
  const res = await fetch(`${t.url}/sites/${siteId}/${path}`, {
    headers: cookie ? { cookie } : {},
    redirect: 'manual',
  });
  return { status: res.status, body: await res.text(), setCookie: res.headers.get('set-cookie') };
};

const SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    isBeta: { type: 'boolean', description: 'Beta tester' },
    plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' },
    unsigned: {
      type: 'object',
      description: 'Unsigned claims of the site visitor.',
      properties: { lang: { type: 'string', enum: ['en', 'fr'], description: 'Language' } },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
};

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Adaptive Org' })).data.id;
  const docs = await space('Docs', 'Everyone sees this.\n');
  const beta = await space('Beta', 'Only beta testers see this.\n');
  const french = await space('Francais', 'Bonjour.\n');
  siteId = (
    await t.client.orgs.createSite(orgId, {
      title: 'Adaptive',
      visibility: SiteVisibility.VisitorAuth,
      spaces: [docs, french],
    })
  ).data.id;
  const frenchSiteSpace = (await t.client.orgs.listSiteSpaces(orgId, siteId)).data.items.find(
    (s) => s.space.id === french,
  )!;
  await t.client.orgs.updateSiteSpaceById(orgId, siteId, frenchSiteSpace.id, {
    condition: 'visitor.claims.unsigned.lang == "fr"',
  });
  betaSectionId = (await t.client.orgs.addSectionToSite(orgId, siteId, { spaceId: beta, title: 'Beta' })).data.id;
  await t.client.orgs.updateSiteSectionById(orgId, siteId, betaSectionId, {
    condition: 'visitor.claims.isBeta == true',
  });
  await t.client.orgs.updateSiteById(orgId, siteId, { adaptiveContent: { enabled: true } });
  await t.client.orgs.publishSite(orgId, siteId);
  key = (await t.client.orgs.getSitePublishingAuthById(orgId, siteId)).data.privateKey;
});
afterAll(async () => {
  await t?.close();
});

describe('visitor schema', () => {
  it('starts empty, accepts a draft-07 visitor schema and suggests conditions from it', async () => {
    const empty = await ok('getSiteAdaptiveSchema', t.client.orgs.getSiteAdaptiveSchema(orgId, siteId));
    expect(empty.jsonSchema.properties).toMatchObject({ unsigned: { type: 'object' } });
    const saved = await ok(
      'updateSiteAdaptiveSchema',
      t.client.orgs.updateSiteAdaptiveSchema(orgId, siteId, { jsonSchema: SCHEMA as never }),
    );
    expect(saved.jsonSchema).toEqual(SCHEMA);
    expect((await ok('getSiteAdaptiveSchema', t.client.orgs.getSiteAdaptiveSchema(orgId, siteId))).jsonSchema).toEqual(
      SCHEMA,
    );
    const conditions = await ok(
      'listSiteAdaptiveTemplateConditions',
      t.client.orgs.listSiteAdaptiveTemplateConditions(orgId, siteId),
    );
    expect(conditions.items.map((c) => c.condition)).toEqual([
      'visitor.claims.isBeta == true',
      'visitor.claims.plan == "free"',
      'visitor.claims.plan == "pro"',
      'visitor.claims.unsigned.lang == "en"',
      'visitor.claims.unsigned.lang == "fr"',
    ]);
  });

  it('rejects schemas that are not draft-07 JSON Schemas of the visitor-claims shape', async () => {
    const put = (jsonSchema: unknown) =>
      raw(t, 'PUT', `/v1/orgs/${orgId}/sites/${siteId}/adaptive-schema`, { token: t.adminToken, body: { jsonSchema } });
    const bad: unknown[] = [
      { ...SCHEMA, $schema: 'https://json-schema.org/draft/2020-12/schema' },
      { ...SCHEMA, type: 'array' },
      { ...SCHEMA, type: 5 },
      { type: 'object', properties: { x: { type: 'boolean', description: 'X' } }, additionalProperties: true },
      { type: 'object', properties: { x: { type: 'boolean' } }, additionalProperties: false },
      { type: 'object', properties: { x: { type: 'date', description: 'X' } }, additionalProperties: false },
      {
        type: 'object',
        properties: { x: { type: 'string', enum: 'pro', description: 'X' } },
        additionalProperties: false,
      },
      {
        type: 'object',
        properties: { x: { type: 'boolean', description: 'X' } },
        additionalProperties: false,
        required: 'x',
      },
      { type: 'object', properties: 'nope', additionalProperties: false },
    ];
    for (const schema of bad) expectError(await put(schema), 400, /jsonSchema/);
    expectError(await put('not an object'), 400);
    expectError(
      await raw(t, 'PUT', `/v1/orgs/${orgId}/sites/${siteId}/adaptive-schema`, { token: t.adminToken, body: {} }),
      400,
    );
  });
});

describe('visitor-auth and adaptive content', () => {
  it('refuses visitors without a token, with a forged, expired or unsigned one', async () => {
    const none = await page('');
    expect(none.status).toBe(401);
    expect(none.body).not.toContain('Everyone sees this');
    expect((await page(`?jwt_token=${await jwt({}, 'not-the-site-key-at-all-000000000000')}`)).status).toBe(403);
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(1_600_000_000)
      .setExpirationTime(1_600_000_100)
      .sign(new TextEncoder().encode(key));
    const res = await page(`?jwt_token=${expired}`);
    expect(res.status).toBe(403);
    expect(res.body).toContain('expired');
    expect((await page(`?jwt_token=${new UnsecuredJWT({ isBeta: true }).encode()}`)).status).toBe(403);
    expect((await page('?jwt_token=garbage')).status).toBe(403);
    expect((await page('', `folio_visitor_${siteId}=garbage`)).status).toBe(403);
  });

  it('admits a signed visitor and shows sections by their claims', async () => {
    const plain = await page(`?jwt_token=${await jwt({ isBeta: false })}`);
    expect(plain.status).toBe(200);
    expect(plain.body).toContain('Everyone sees this');
    expect(plain.body).not.toContain('>Beta<');
    expect(plain.setCookie).toMatch(
      new RegExp(`^folio_visitor_${siteId}=[^;]+; Path=/sites/${siteId}/; HttpOnly; SameSite=Lax; Max-Age=\\d+`),
    );
    const cookie = plain.setCookie!.split(';')[0]!;
    expect((await page('beta/', cookie)).status).toBe(404);
    const beta = await page(`?jwt_token=${await jwt({ isBeta: true })}`);
    expect(beta.body).toContain('>Beta</a>');
    const betaCookie = beta.setCookie!.split(';')[0]!;
    const betaPage = await page('beta/', betaCookie);
    expect(betaPage.status).toBe(200);
    expect(betaPage.body).toContain('Only beta testers see this.');
  });

  it('shows site spaces by unsigned URL claims', async () => {
    const cookie = (await page(`?jwt_token=${await jwt({})}`)).setCookie!.split(';')[0]!;
    expect((await page('', cookie)).body).not.toContain('Francais');
    const fr = await page('?visitor.lang=fr', cookie);
    expect(fr.body).toContain('Francais');
    expect((await page('francais/?visitor.lang=fr', cookie)).body).toContain('Bonjour.');
    expect((await page('francais/?visitor.lang=de', cookie)).status).toBe(404);
  });

  it('shows everything when adaptive content is off', async () => {
    await t.client.orgs.updateSiteById(orgId, siteId, { adaptiveContent: { enabled: false } });
    const cookie = (await page(`?jwt_token=${await jwt({})}`)).setCookie!.split(';')[0]!;
    expect((await page('beta/', cookie)).status).toBe(200);
    await t.client.orgs.updateSiteById(orgId, siteId, { adaptiveContent: { enabled: true } });
    expect((await page('beta/', cookie)).status).toBe(404);
  });
});
