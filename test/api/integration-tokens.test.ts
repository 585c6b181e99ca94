import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeRequestContentUpdate } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import {
  installationBotId,
  integrationBotId,
  mintIntegrationTokens,
} from '../../sync-server/identity/integration-tokens';
import { mappedOperations, scopeRefusal, scopesForOperation } from '../../sync-server/identity/integration-scopes';
import { purgeExpiredSignIns } from '../../sync-server/jobs/purge-expired-sign-ins';
import { expectError, fails, ok, raw } from '../helpers/api';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Integration and installation tokens (issue 32): minted by mintIntegrationTokens (what the event
 * dispatcher calls) and by GitBook's createIntegrationInstallationToken, used through the official
 * client. An installation acts as a guest of its organization with grants on the spaces it is
 * installed on, of the role its scopes imply, and the route scope guard refuses every operation
 * whose scope it lacks (deny by default). Expiry, uninstall and a narrower republish end or narrow
 * live tokens.
 */

let t: TestServer;
let orgId = '';
let spaceA = '';
let spaceB = '';
let pageId = '';

/** Publishes (or republishes) an integration of the test organization with these scopes. */
async function publish(name: string, scopes: string[]) {
  const res = await raw(t, 'POST', `/v1/integrations/${name}`, {
    token: t.adminToken,
    body: {
      title: `Bot ${name}`,
      description: 'An integration of the token tests',
      visibility: 'private',
      target: 'all',
      scopes,
      script: 'export default {}',
      organization: orgId,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

/** Installs `name` in the organization, on space A only; returns the installation id. */
async function install(name: string): Promise<string> {
  const res = await raw(t, 'POST', `/v1/integrations/${name}/installations`, {
    token: t.adminToken,
    body: { organization: orgId },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = (res.body as { id: string }).id;
  const onSpace = await raw(t, 'POST', `/v1/integrations/${name}/installations/${id}/spaces`, {
    token: t.adminToken,
    body: { space: spaceA },
  });
  expect(onSpace.status, JSON.stringify(onSpace.body)).toBe(201);
  return id;
}

/** The installation's token, minted through the API with the integration's own token. */
async function installationToken(name: string, installationId: string): Promise<string> {
  const { integration } = await mintIntegrationTokens(t.server.ctx.db, t.clock.now(), { integrationName: name });
  const minted = await ok(
    'createIntegrationInstallationToken',
    t.clientFor(integration).integrations.createIntegrationInstallationToken(name, installationId),
  );
  return minted.token;
}

let readerInstallation = '';
let reader = '';

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Token Org' })).data.id;
  spaceA = (await t.client.orgs.createSpace(orgId, { title: 'Installed' })).data.id;
  spaceB = (await t.client.orgs.createSpace(orgId, { title: 'Not installed' })).data.id;
  await t.server.ctx.hub.change(spaceContentDoc(spaceA), (doc) => {
    pageId = new ContentDoc(doc).createPage({ title: 'Welcome', markdown: 'Hello.\n' });
  });
  // REST reads are served from revisions: cut one now rather than after the quiet period.
  await t.server.ctx.snapshots.revise(spaceA);
  await publish('reader-bot', ['space:content:read']);
  readerInstallation = await install('reader-bot');
  reader = await installationToken('reader-bot', readerInstallation);
});
afterAll(async () => {
  await t?.close();
});

describe('minting', () => {
  it('mintIntegrationTokens gives an integration token and an installation token, expiring an hour later', async () => {
    const now = t.clock.now();
    const tokens = await mintIntegrationTokens(t.server.ctx.db, now, {
      integrationName: 'reader-bot',
      installationId: readerInstallation,
    });
    expect(tokens.integration).toMatch(/^folio_/);
    expect(tokens.installation).toMatch(/^folio_/);
    expect(tokens.installation).not.toBe(tokens.integration);
    expect(tokens.expiresAt.getTime() - now.getTime()).toBe(3_600_000);
    // Only digests are stored.
    const stored = await t.server.ctx.db.query<{ token_hash: string }>('SELECT token_hash FROM integration_tokens');
    expect(stored.map((r) => r.token_hash)).not.toContain(tokens.installation);
    const me = await ok('getAuthenticatedUser', t.clientFor(tokens.installation!).user.getAuthenticatedUser());
    expect(me.id).toBe(installationBotId(readerInstallation));
    const integrationMe = await ok('getAuthenticatedUser', t.clientFor(tokens.integration).user.getAuthenticatedUser());
    expect(integrationMe.id).toBe(integrationBotId('reader-bot'));
  });

  it('rejects an unknown integration or installation', async () => {
    await expect(mintIntegrationTokens(t.server.ctx.db, t.clock.now(), { integrationName: 'nope' })).rejects.toThrow();
    await expect(
      mintIntegrationTokens(t.server.ctx.db, t.clock.now(), { integrationName: 'reader-bot', installationId: 'nope' }),
    ).rejects.toThrow();
  });

  it('createIntegrationInstallationToken is for the integration itself: not a human admin, not an installation', async () => {
    const path = `/v1/integrations/reader-bot/installations/${readerInstallation}/tokens`;
    expectError(await raw(t, 'POST', path, { token: t.adminToken }), 403, /integration's own token/);
    expectError(await raw(t, 'POST', path, { token: reader }), 403, /integration's own token/);
    const { integration } = await mintIntegrationTokens(t.server.ctx.db, t.clock.now(), {
      integrationName: 'reader-bot',
    });
    expectError(
      await raw(t, 'POST', `/v1/integrations/reader-bot/installations/missing/tokens`, { token: integration }),
      404,
    );
    expectError(await raw(t, 'POST', path.replace('reader-bot', 'other-bot'), { token: integration }), 404);
  });

  it("the integration's token lists its installations", async () => {
    const { integration } = await mintIntegrationTokens(t.server.ctx.db, t.clock.now(), {
      integrationName: 'reader-bot',
    });
    const list = await ok(
      'listIntegrationInstallations',
      t.clientFor(integration).integrations.listIntegrationInstallations('reader-bot'),
    );
    expect(list.items.map((i) => i.id)).toEqual([readerInstallation]);
    const one = await ok(
      'getIntegrationInstallationById',
      t.clientFor(reader).integrations.getIntegrationInstallationById('reader-bot', readerInstallation),
    );
    expect(one.id).toBe(readerInstallation);
  });
});

describe('an installation with space:content:read', () => {
  it('reads the pages of the space it is installed on', async () => {
    const client = t.clientFor(reader);
    const pages = await ok('listPages', client.spaces.listPages(spaceA));
    expect(pages.pages.map((p) => p.id)).toContain(pageId);
    await ok('getPageById', client.spaces.getPageById(spaceA, pageId));
  });

  it('cannot write there (403)', async () => {
    const client = t.clientFor(reader);
    expect(await fails(client.spaces.createChangeRequest(spaceA, {}), 403)).toMatch(/space:content:write/);
    expect(await fails(client.spaces.postCommentInSpace(spaceA, { body: { markdown: 'hi' } } as never), 403)).toMatch(
      /comments:write/,
    );
  });

  it('cannot see a space it is not installed on (404)', async () => {
    await fails(t.clientFor(reader).spaces.listPages(spaceB), 404);
    await fails(t.clientFor(reader).spaces.getSpaceById(spaceB), 404);
  });

  it('cannot call an operation the scope table does not map (403, naming it)', async () => {
    expectError(
      await raw(t, 'GET', `/v1/orgs/${orgId}/members`, { token: reader }),
      403,
      /listMembersInOrganizationById/,
    );
    expectError(await raw(t, 'POST', '/v1/orgs', { token: reader, body: { title: 'x' } }), 403);
    // The guard runs before validation: a bad body of an unmapped route is still a 403.
    expectError(await raw(t, 'POST', `/v1/orgs/${orgId}/spaces`, { token: reader, body: {} }), 403);
  });

  it("the integration's own token is no member anywhere: it sees no content (404)", async () => {
    const { integration } = await mintIntegrationTokens(t.server.ctx.db, t.clock.now(), {
      integrationName: 'reader-bot',
    });
    await fails(t.clientFor(integration).spaces.listPages(spaceA), 404);
  });
});

describe('an installation with space:content:write', () => {
  it('updates a page as its bot, not as a human', async () => {
    await publish('writer-bot', ['space:content:read', 'space:content:write']);
    const installationId = await install('writer-bot');
    const { installation } = await mintIntegrationTokens(t.server.ctx.db, t.clock.now(), {
      integrationName: 'writer-bot',
      installationId,
    });
    const client = t.clientFor(installation!);
    const cr = await ok('createChangeRequest', client.spaces.createChangeRequest(spaceA, {}), 201);
    expect(cr.createdBy.id).toBe(installationBotId(installationId));
    const update = (await ok(
      'updateChangeRequestContent',
      client.spaces.updateChangeRequestContent(
        spaceA,
        cr.id,
        {
          changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'Edited by a bot.\n' } }],
        },
        { compat: false },
      ),
    )) as ChangeRequestContentUpdate;
    const [revision] = await t.server.ctx.db.query<{ created_by: string }>(
      'SELECT created_by FROM revisions WHERE id = $1',
      [update.changeRequest.revision],
    );
    expect(revision!.created_by).toBe(installationBotId(installationId));
    // Not on the space it is not installed on.
    await fails(client.spaces.createChangeRequest(spaceB, {}), 404);
  });
});

describe('ending and narrowing tokens', () => {
  it('an expired token is refused (401) and purged', async () => {
    const past = new Date(t.clock.now().getTime() - 2 * 3_600_000);
    const { installation } = await mintIntegrationTokens(t.server.ctx.db, past, {
      integrationName: 'reader-bot',
      installationId: readerInstallation,
    });
    expectError(await raw(t, 'GET', `/v1/spaces/${spaceA}/content/pages`, { token: installation }), 401);
    expect(await purgeExpiredSignIns(t.server.ctx)).toBeGreaterThanOrEqual(2);
    const left = await t.server.ctx.db.query('SELECT 1 FROM integration_tokens WHERE expires_at <= $1', [
      t.clock.now(),
    ]);
    expect(left).toEqual([]);
  });

  it('a republish without the scope narrows a live token (403)', async () => {
    await publish('narrow-bot', ['space:content:read']);
    const id = await install('narrow-bot');
    const token = await installationToken('narrow-bot', id);
    await ok('listPages', t.clientFor(token).spaces.listPages(spaceA));
    await publish('narrow-bot', ['space:metadata:read']);
    expect(await fails(t.clientFor(token).spaces.listPages(spaceA), 403)).toMatch(/space:content:read/);
    await ok('getSpaceById', t.clientFor(token).spaces.getSpaceById(spaceA));
  });

  it('uninstalling ends the installation token (401)', async () => {
    await publish('gone-bot', ['space:content:read']);
    const id = await install('gone-bot');
    const token = await installationToken('gone-bot', id);
    await ok('listPages', t.clientFor(token).spaces.listPages(spaceA));
    const res = await raw(t, 'DELETE', `/v1/integrations/gone-bot/installations/${id}`, { token: t.adminToken });
    expect(res.status).toBeLessThan(300);
    expectError(await raw(t, 'GET', `/v1/spaces/${spaceA}/content/pages`, { token }), 401);
    expect(await t.server.ctx.db.query('SELECT 1 FROM integration_tokens WHERE installation_id = $1', [id])).toEqual(
      [],
    );
  });

  it('humans are unaffected by the guard', async () => {
    await ok('listMembersInOrganizationById', t.client.orgs.listMembersInOrganizationById(orgId));
  });
});

describe('the scope table', () => {
  it('maps only operations the server has', async () => {
    const doc = (await raw(t, 'GET', '/v1/openapi.json')).body as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const published = new Set(
      Object.values(doc.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId)),
    );
    expect(mappedOperations().filter((op) => !published.has(op))).toEqual([]);
  });

  it('denies by default and names the missing scope', () => {
    expect(scopesForOperation('deleteSpaceById')).toBeUndefined();
    expect(scopeRefusal('deleteSpaceById', { scopes: ['space:content:write'], installation: true })).toMatch(
      /may not call deleteSpaceById/,
    );
    expect(scopeRefusal('listPages', { scopes: [], installation: true })).toMatch(/space:content:read/);
    expect(scopeRefusal('listPages', { scopes: ['space:content:read'], installation: true })).toBeUndefined();
  });
});

describe('sites', () => {
  it('an installation with site:metadata:read reads and lists the sites it runs on, and no other', async () => {
    const siteA = (await t.client.orgs.createSite(orgId, { title: 'Runs here' })).data.id;
    const siteB = (await t.client.orgs.createSite(orgId, { title: 'Not here' })).data.id;
    await publish('site-bot', ['site:metadata:read']);
    const installation = await install('site-bot');
    const onSite = await raw(t, 'POST', `/v1/integrations/site-bot/installations/${installation}/sites`, {
      token: t.adminToken,
      body: { siteId: siteA },
    });
    expect(onSite.status, JSON.stringify(onSite.body)).toBe(201);
    const token = await installationToken('site-bot', installation);
    const bot = t.clientFor(token);
    const read = await ok('getSiteById', bot.orgs.getSiteById(orgId, siteA));
    expect(read.id).toBe(siteA);
    expect(read.permissions.admin).toBe(false);
    await fails(bot.orgs.getSiteById(orgId, siteB), 404);
    const listed = await ok('listSites', bot.orgs.listSites(orgId));
    expect(listed.items.map((s) => s.id)).toEqual([siteA]);
    // Managing the site is no scope of any integration's.
    await fails(bot.orgs.updateSiteById(orgId, siteA, { title: 'Renamed' }), 403);
    // A space-only installation's token reads no site: the scope guard names what it lacks.
    expect(await fails(t.clientFor(reader).orgs.getSiteById(orgId, siteA), 403)).toMatch(/site:metadata:read/);
  });
});
