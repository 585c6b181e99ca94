import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationInstallation } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { ok, raw } from '../helpers/api';
import { assertMatchesGitBookSchema } from '../helpers/gitbook-schema';
import { startIntegrationTunnel, type IntegrationTunnel, type ReceivedDispatch } from '../helpers/integration-tunnel';
import { gitbookClient, startTestServer, type TestServer } from '../helpers/server';

/**
 * Events as jobs, delivered to a development tunnel (issue 32): installation_setup,
 * space_installation_setup and space_content_updated reach a receiver on 127.0.0.1 in GitBook's
 * dispatch format (multipart `event`, `environment`, read as @gitbook/runtime reads them), with an
 * environment whose installation token calls this server back; a tunnel that is down is retried,
 * then the event fails with the reason in its trace; events are listed with their status and trace.
 */

let t: TestServer;
let tunnel: IntegrationTunnel;
let org = '';
let otherOrg = '';
let space = '';
let installation: IntegrationInstallation;
let otherInstallation = '';

const NAME = 'tunnelled';
const SECRET = 'a-secret-of-the-integration-0123';

/** Runs the queued deliveries, skipping each retry's backoff on the test clock. */
async function deliverAll(rounds = 1) {
  for (let i = 0; i < rounds; i++) {
    await t.server.ctx.jobRunner.drain();
    t.clock.advance(10 * 60_000);
  }
  await t.server.ctx.jobRunner.drain();
}

/** Validates a dispatch against GitBook's Event and IntegrationEnvironment schemas. */
function expectGitBookDispatch(d: ReceivedDispatch) {
  expect(d.path).toBe('/v1');
  expect(d.contentType).toMatch(/^multipart\/form-data; boundary=/);
  assertMatchesGitBookSchema('Event', d.event);
  assertMatchesGitBookSchema('IntegrationEnvironment', d.environment);
}

beforeAll(async () => {
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
  tunnel = await startIntegrationTunnel();
  org = (await t.client.orgs.createOrganization({ title: 'Publisher' })).data.id;
  otherOrg = (await t.client.orgs.createOrganization({ title: 'Customer' })).data.id;
  space = (await t.client.orgs.createSpace(org, { title: 'Docs' })).data.id;
  const published = await raw(t, 'POST', `/v1/integrations/${NAME}`, {
    token: t.adminToken,
    body: {
      title: 'Tunnelled',
      description: 'An integration in development mode',
      scopes: ['space:content:read'],
      script: 'export default {}',
      organization: org,
      target: 'all',
      visibility: 'public',
      secrets: { API_KEY: SECRET },
    },
  });
  expect(published.status, JSON.stringify(published.body)).toBeLessThan(300);
  const dev = await raw(t, 'PUT', `/v1/integrations/${NAME}/dev`, {
    token: t.adminToken,
    body: { tunnelUrl: tunnel.url },
  });
  expect(dev.status).toBe(204);
});
afterAll(async () => {
  await tunnel?.close();
  await t?.close();
});

describe('development mode: events reach the tunnel', () => {
  it('sends installation_setup on install, with an environment whose installation token calls back', async () => {
    installation = await ok(
      'installIntegration',
      t.client.integrations.installIntegration(NAME, { organization: org }),
      201,
    );
    expect(tunnel.received).toHaveLength(0); // queued, not sent inline
    await deliverAll();
    const [setup] = tunnel.ofType('installation_setup');
    expect(setup).toBeDefined();
    expectGitBookDispatch(setup!);
    expect(setup!.event).toMatchObject({
      type: 'installation_setup',
      installationId: installation.id,
      status: 'active',
    });
    const env = setup!.environment;
    expect(env.apiEndpoint).toBe(t.url);
    expect(env.integration).toMatchObject({
      name: NAME,
      urls: { publicEndpoint: `${t.url}/integrations/${NAME}/integration` },
    });
    expect(env.installation).toMatchObject({ id: installation.id, status: 'active' });
    expect(env.secrets).toEqual({ API_KEY: SECRET });
    expect(env.signingSecrets.integration).toMatch(/^[0-9a-f]{64}$/);
    expect(env.apiTokens.installation).toBeTruthy();

    // The installation token is a working credential for this server's API, as @gitbook/runtime uses it.
    const asInstallation = gitbookClient(env.apiEndpoint, env.apiTokens.installation);
    const got = await asInstallation.integrations.getIntegrationInstallationById(NAME, installation.id);
    expect(got.data.id).toBe(installation.id);
  });

  it('sends space_installation_setup on install on a space, and the token reads that space', async () => {
    await ok(
      'installIntegrationOnSpace',
      t.client.integrations.installIntegrationOnSpace(NAME, installation.id, { space }),
      201,
    );
    await deliverAll();
    const [setup] = tunnel.ofType('space_installation_setup');
    expectGitBookDispatch(setup!);
    expect(setup!.event).toMatchObject({ installationId: installation.id, spaceId: space, status: 'active' });
    expect(setup!.environment.spaceInstallation).toMatchObject({ space, installation: installation.id });
    const asInstallation = gitbookClient(t.url, setup!.environment.apiTokens.installation);
    const pages = await asInstallation.spaces.listPages(space);
    expect(pages.status).toBe(200);
  });

  it('sends space_content_updated with the new revision and who made it after an edit', async () => {
    const me = (await t.client.user.getAuthenticatedUser()).data;
    await t.server.ctx.hub.change(
      spaceContentDoc(space),
      (doc) => {
        new ContentDoc(doc).createPage({ title: 'Hello', markdown: 'Hello integrations\n' });
      },
      { userId: me.id },
    );
    // A revision cut with no author named gathers the live edits waiting for it, and their author.
    const revision = await t.server.ctx.snapshots.revise(space);
    expect(revision).toBeTruthy();
    await deliverAll();
    const updates = tunnel.ofType('space_content_updated');
    expect(updates).toHaveLength(1);
    expectGitBookDispatch(updates[0]!);
    expect(updates[0]!.event).toMatchObject({ installationId: installation.id, spaceId: space, revisionId: revision });
    const updatedBy = updates[0]!.event.updatedBy as { id: string; displayName: string; email?: string }[];
    expect(updatedBy.map((u) => [u.id, u.displayName])).toEqual([[me.id, me.displayName]]);
    expect(updatedBy[0]!.email).toBeUndefined(); // an installation is no member: no emails
    const [row] = await t.server.ctx.db.query<{ created_by: string }>(
      'SELECT created_by FROM revisions WHERE id = $1',
      [revision],
    );
    expect(row!.created_by).toBe(me.id);

    // The script would list the pages of that revision with its installation token.
    const asInstallation = gitbookClient(t.url, updates[0]!.environment.apiTokens.installation);
    const pages = await asInstallation.spaces.listPagesInRevisionById(space, revision!);
    expect(pages.data.pages.map((p) => p.title)).toContain('Hello');
  });

  it('sends installation_setup again when the configuration is updated, with the previous state', async () => {
    await ok(
      'updateIntegrationInstallation',
      t.client.integrations.updateIntegrationInstallation(NAME, installation.id, { configuration: {} }),
    );
    await deliverAll();
    const setups = tunnel.ofType('installation_setup');
    expect(setups).toHaveLength(2);
    expect(setups[1]!.event).toMatchObject({ previous: { status: 'active', configuration: {} } });
  });

  it("does not send another organization's events to the tunnel (they go to the published script)", async () => {
    const before = tunnel.received.length;
    const other = await ok(
      'installIntegration',
      t.client.integrations.installIntegration(NAME, { organization: otherOrg }),
      201,
    );
    await deliverAll();
    expect(tunnel.received).toHaveLength(before);
    const events = await ok('listIntegrationEvents', t.client.integrations.listIntegrationEvents(NAME, { limit: 100 }));
    const theirs = events.items.find((e) => e.installationId === other.id);
    // 'export default {}' has no fetch handler: the event failed in the sandbox (or there is no sandbox).
    expect(theirs?.status).toBe('failed');
    otherInstallation = other.id;
  });

  it('sends space_installation_deleted on uninstall from a space, with the previous configuration', async () => {
    const spaceOfItsOwn = (await t.client.orgs.createSpace(org, { title: 'Short-lived' })).data.id;
    await ok(
      'installIntegrationOnSpace',
      t.client.integrations.installIntegrationOnSpace(NAME, installation.id, { space: spaceOfItsOwn }),
      201,
    );
    const removed = await t.client.integrations.uninstallIntegrationFromSpace(NAME, installation.id, spaceOfItsOwn);
    expect(removed.status).toBe(205);
    expect(tunnel.ofType('space_installation_deleted')).toHaveLength(0); // queued with the deletion
    await deliverAll();
    const [deleted] = tunnel.ofType('space_installation_deleted');
    expectGitBookDispatch(deleted!);
    expect(deleted!.event).toMatchObject({
      installationId: installation.id,
      spaceId: spaceOfItsOwn,
      previous: { configuration: {} },
    });
    // The organization's installation is still there, its token with it; the space's is gone.
    expect(deleted!.environment.installation).toMatchObject({ id: installation.id });
    expect(deleted!.environment.spaceInstallation).toBeUndefined();
    expect(deleted!.environment.apiTokens.installation).toBeTruthy();

    // Uninstalling what is not installed any more tells the integration nothing more.
    const again = await t.client.integrations.uninstallIntegrationFromSpace(NAME, installation.id, spaceOfItsOwn);
    expect(again.status).toBe(204);
    await deliverAll();
    expect(tunnel.ofType('space_installation_deleted')).toHaveLength(1);
  });

  it("sends installation_deleted to the tunnel only for the owner's organization unless `all` is set", async () => {
    // Another organization's uninstall: the installation is gone when it is delivered, and its
    // organization (kept with the event) still keeps it away from the tunnel.
    const removed = await t.client.integrations.uninstallIntegration(NAME, otherInstallation);
    expect(removed.status).toBe(205);
    await deliverAll();
    expect(tunnel.ofType('installation_deleted')).toHaveLength(0);
    const events = await ok('listIntegrationEvents', t.client.integrations.listIntegrationEvents(NAME, { limit: 100 }));
    const theirs = events.items.find(
      (e) => e.installationId === otherInstallation && e.payload.type === 'installation_deleted',
    );
    expect(theirs?.status).toBe('failed'); // to the published script, which has no handler

    // With `all`, every organization's events go to the tunnel.
    const third = (await t.client.orgs.createOrganization({ title: 'Third' })).data.id;
    const thirds = await ok(
      'installIntegration',
      t.client.integrations.installIntegration(NAME, { organization: third }),
      201,
    );
    await deliverAll();
    const all = await raw(t, 'PUT', `/v1/integrations/${NAME}/dev`, {
      token: t.adminToken,
      body: { tunnelUrl: tunnel.url, all: true },
    });
    expect(all.status).toBe(204);
    expect((await t.client.integrations.uninstallIntegration(NAME, thirds.id)).status).toBe(205);
    await deliverAll();
    const [deleted] = tunnel.ofType('installation_deleted');
    expectGitBookDispatch(deleted!);
    expect(deleted!.event).toMatchObject({ installationId: thirds.id, previous: { configuration: {} } });
    // No installation any more, and no token to act as it: the integration's own token only.
    expect(deleted!.environment.installation).toBeUndefined();
    expect(deleted!.environment.apiTokens.installation).toBeUndefined();
    expect(deleted!.environment.apiTokens.integration).toBeTruthy();
    const back = await raw(t, 'PUT', `/v1/integrations/${NAME}/dev`, {
      token: t.adminToken,
      body: { tunnelUrl: tunnel.url },
    });
    expect(back.status).toBe(204);
  });
});

describe('tasks', () => {
  it('queues a task event `schedule` seconds later (queueIntegrationTask)', async () => {
    const res = await raw(t, 'POST', `/v1/integrations/${NAME}/tasks`, {
      token: t.adminToken,
      body: { task: { kind: 'resync', page: 2 }, schedule: 600 },
    });
    expect(res.status).toBe(204);
    await t.server.ctx.jobRunner.drain();
    expect(tunnel.ofType('task')).toHaveLength(0); // not before its time
    t.clock.advance(601_000);
    await t.server.ctx.jobRunner.drain();
    const [task] = tunnel.ofType('task');
    expectGitBookDispatch(task!);
    expect(task!.event.task).toEqual({ kind: 'resync', page: 2 });
    expect(task!.environment.installation).toBeUndefined();
    // The runtime's `context.integration.queueTask` calls with the integration's own token; an installation's may not.
    const tokens = task!.environment.apiTokens as { integration: string; installation?: string };
    const own = await raw(t, 'POST', `/v1/integrations/${NAME}/tasks`, {
      token: tokens.integration,
      body: { task: { kind: 'again' } },
    });
    expect(own.status).toBe(204);
    await t.server.ctx.jobRunner.drain();
    expect(tunnel.ofType('task').map((e) => e.event.task)).toContainEqual({ kind: 'again' });
    const [setup] = tunnel.ofType('installation_setup');
    const asInstallation = await raw(t, 'POST', `/v1/integrations/${NAME}/tasks`, {
      token: (setup!.environment.apiTokens as { installation: string }).installation,
      body: { task: { kind: 'no' } },
    });
    expect(asInstallation.status).toBe(403);
  });
});

describe('delivery failures', () => {
  it('retries a tunnel answering 503, then records the success', async () => {
    tunnel.answers.push({ status: 503, body: 'busy' });
    await ok(
      'updateIntegrationInstallation',
      t.client.integrations.updateIntegrationInstallation(NAME, installation.id, { configuration: {} }),
    );
    await t.server.ctx.jobRunner.drain();
    const listed = await ok('listIntegrationEvents', t.client.integrations.listIntegrationEvents(NAME, { limit: 100 }));
    const pendingCount = listed.count;
    await deliverAll();
    const after = await ok('listIntegrationEvents', t.client.integrations.listIntegrationEvents(NAME, { limit: 100 }));
    expect(after.count).toBe((pendingCount ?? 0) + 1); // listed once delivered, not while pending
    const newest = after.items[0]!;
    expect(newest.status).toBe('success');
    const { trace } = await ok('getIntegrationEvent', t.client.integrations.getIntegrationEvent(NAME, newest.id));
    const messages = trace!.logs.map((l) => l.message);
    expect(messages).toContain('The tunnel answered 503');
    expect(messages).toContain('Attempt 2 of 5');
    expect(messages).toContain('The tunnel answered 200');
  });

  it('retries a tunnel that is down, then fails the event with the reason in its trace', async () => {
    await tunnel.close();
    await ok(
      'updateIntegrationInstallation',
      t.client.integrations.updateIntegrationInstallation(NAME, installation.id, { configuration: {} }),
    );
    await deliverAll(6);
    const listed = await ok('listIntegrationEvents', t.client.integrations.listIntegrationEvents(NAME, { limit: 100 }));
    const newest = listed.items[0]!;
    expect(newest.payload.type).toBe('installation_setup');
    expect(newest.status).toBe('failed');
    const got = await ok('getIntegrationEvent', t.client.integrations.getIntegrationEvent(NAME, newest.id));
    const logs = got.trace!.logs;
    expect(logs.filter((l) => l.message?.startsWith('Attempt '))).toHaveLength(5);
    expect(logs.filter((l) => l.message === 'Tried again later')).toHaveLength(4);
    expect(logs.at(-1)).toMatchObject({ level: 'error' });
    expect(logs.at(-1)!.message).toMatch(/^The development tunnel could not be reached/);
  });
});
