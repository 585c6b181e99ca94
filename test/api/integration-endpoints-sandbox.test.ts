import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressToEncodedURIComponent } from 'lz-string';
import type { IntegrationInstallation } from '@gitbook/api';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { ok, raw } from '../helpers/api';
import { assertMatchesGitBookSchema } from '../helpers/gitbook-schema';
import { bundleIntegration, INTEGRATION_FIXTURES } from '../helpers/integration-bundle';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * A published integration end to end (issue 32): a @gitbook/runtime integration bundled as GitBook's
 * CLI bundles it runs in the sandbox — it answers fetch on its public endpoint (with the manifest's
 * CSP), handles installation_setup and space_content_updated (calling this server's API back with its
 * installation token, in-process), renders a block, and a script that loops marks its event failed
 * while the server keeps answering.
 */

let t: TestServer;
let org = '';
let space = '';
let installation: IntegrationInstallation;
const NAME = 'dispatch-e2e';

/** The trace messages of the newest event of a type. */
async function newestTrace(type: string): Promise<{ status: string; messages: string[] }> {
  const events = await ok('listIntegrationEvents', t.client.integrations.listIntegrationEvents(NAME, { limit: 100 }));
  const event = events.items.find((e) => e.payload.type === type)!;
  const got = await ok('getIntegrationEvent', t.client.integrations.getIntegrationEvent(NAME, event.id));
  return { status: event.status, messages: got.trace!.logs.map((l) => l.message ?? '') };
}

beforeAll(async () => {
  t = await startTestServer();
  org = (await t.client.orgs.createOrganization({ title: 'Publisher' })).data.id;
  space = (await t.client.orgs.createSpace(org, { title: 'Docs' })).data.id;
  const script = await bundleIntegration(`${INTEGRATION_FIXTURES}dispatch-e2e/src/index.js`);
  const published = await raw(t, 'POST', `/v1/integrations/${NAME}`, {
    token: t.adminToken,
    body: {
      title: 'Dispatch end to end',
      description: 'Runs in the sandbox',
      scopes: ['space:content:read'],
      script,
      organization: org,
      target: 'all',
      visibility: 'public',
      blocks: [{ id: 'greeting', title: 'Greeting' }],
      contentSecurityPolicy: "script-src 'self'",
    },
  });
  expect(published.status, JSON.stringify(published.body)).toBeLessThan(300);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('a published script in the sandbox', () => {
  it('receives installation_setup and logs to the trace', async () => {
    installation = await ok(
      'installIntegration',
      t.client.integrations.installIntegration(NAME, { organization: org }),
      201,
    );
    await t.server.ctx.jobRunner.drain();
    const { status, messages } = await newestTrace('installation_setup');
    expect(status).toBe('success');
    expect(messages).toContain(`installation_setup for ${installation.id} of ${NAME}`);
  });

  it('answers fetch on its public endpoint with the CSP of its manifest', async () => {
    const res = await fetch(`${t.url}/integrations/${NAME}/installations/${installation.id}/echo`, {
      method: 'PUT',
      body: 'ping',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe("script-src 'self'");
    expect(await res.json()).toMatchObject({ method: 'PUT', body: 'ping', installation: installation.id });
  });

  it('lists the pages of a new revision through the API on space_content_updated', async () => {
    await ok(
      'installIntegrationOnSpace',
      t.client.integrations.installIntegrationOnSpace(NAME, installation.id, { space }),
      201,
    );
    await t.server.ctx.hub.change(spaceContentDoc(space), (doc) => {
      new ContentDoc(doc).createPage({ title: 'From the editor', markdown: 'Text\n' });
    });
    await t.server.ctx.snapshots.revise(space);
    await t.server.ctx.jobRunner.drain();
    const { status, messages } = await newestTrace('space_content_updated');
    expect(status, messages.join('\n')).toBe('success');
    expect(messages).toContain('pages: From the editor');
  });

  it('renders a block (POST and GET) and lists the blocks of the space', async () => {
    const request = {
      componentId: 'greeting',
      props: { name: 'Ada' },
      context: { type: 'document', spaceId: space, editable: false, theme: 'light' },
    };
    const posted = await raw(t, 'POST', `/v1/integrations/${NAME}/render`, { token: t.adminToken, body: request });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    expect(posted.headers.get('cache-control')).toBe('private, max-age=60');
    expect(JSON.stringify(posted.body)).toContain('Hello, Ada!');
    // GitBook's PlainObject props match a string twice in its oneOf: the schema check renders empty props.
    const plain = await raw(t, 'POST', `/v1/integrations/${NAME}/render`, {
      token: t.adminToken,
      body: { ...request, props: {} },
    });
    assertMatchesGitBookSchema('ContentKitRenderOutput', plain.body);
    expect(JSON.stringify(plain.body)).toContain('Hello, world!');
    const got = await raw(
      t,
      'GET',
      `/v1/integrations/${NAME}/render?request=${compressToEncodedURIComponent(JSON.stringify(request))}`,
      { token: t.adminToken },
    );
    expect(got.body).toEqual(posted.body);
    // The GET was the same first render: served from the cache, the script ran once for it.
    const renders = await ok(
      'listIntegrationEvents',
      t.client.integrations.listIntegrationEvents(NAME, { limit: 100 }),
    );
    expect(renders.items.filter((e) => e.payload.type === 'ui_render')).toHaveLength(2);
    const blocks = await raw(t, 'GET', `/v1/spaces/${space}/integration-blocks`, { token: t.adminToken });
    assertMatchesGitBookSchema('SpaceIntegrationBlocks', blocks.body);
    expect(blocks.body).toEqual([{ name: NAME, blocks: [expect.objectContaining({ id: 'greeting' })] }]);
  });

  it('fails the event of a script that loops, while the server keeps answering', async () => {
    const looping = fetch(`${t.url}/integrations/${NAME}/integration/loop`);
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    const res = await looping;
    expect(res.status).toBe(502);
    const { status, messages } = await newestTrace('fetch');
    expect(status).toBe('failed');
    expect(messages.join('\n')).toMatch(/ran out of time/);
  }, 60_000);
});
