import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationInstallation } from '@gitbook/api';
import { ok, raw } from '../helpers/api';
import { startIntegrationTunnel, type IntegrationTunnel } from '../helpers/integration-tunnel';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Integrations' public endpoints through a development tunnel (issue 32): any request to
 * `<root>/integrations/{name}/integration` or an installation's endpoint (and below) becomes a
 * `fetch` event with the request and its body, answered with what the integration answered and the
 * manifest's Content-Security-Policy; unknown integrations and installations are 404; a tunnel that
 * gives no answer is a 502 in GitBook's error shape; the event is recorded without the caller's
 * credentials.
 */

let t: TestServer;
let tunnel: IntegrationTunnel;
let org = '';
let space = '';
let installation: IntegrationInstallation;
const NAME = 'webhooks';

beforeAll(async () => {
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
  tunnel = await startIntegrationTunnel();
  org = (await t.client.orgs.createOrganization({ title: 'Publisher' })).data.id;
  space = (await t.client.orgs.createSpace(org, { title: 'Docs' })).data.id;
  const published = await raw(t, 'POST', `/v1/integrations/${NAME}`, {
    token: t.adminToken,
    body: {
      title: 'Webhooks',
      description: 'Receives webhooks',
      scopes: [],
      script: 'export default {}',
      organization: org,
      target: 'all',
      visibility: 'public',
      contentSecurityPolicy: { 'script-src': "'self'", 'frame-ancestors': "'none'" },
    },
  });
  expect(published.status, JSON.stringify(published.body)).toBeLessThan(300);
  await raw(t, 'PUT', `/v1/integrations/${NAME}/dev`, { token: t.adminToken, body: { tunnelUrl: tunnel.url } });
  installation = await ok(
    'installIntegration',
    t.client.integrations.installIntegration(NAME, { organization: org }),
    201,
  );
  await ok(
    'installIntegrationOnSpace',
    t.client.integrations.installIntegrationOnSpace(NAME, installation.id, { space }),
    201,
  );
  await t.server.ctx.jobRunner.drain();
});
afterAll(async () => {
  await tunnel?.close();
  await t?.close();
});

describe('public endpoints', () => {
  it('are the URLs the API hands out, outside /v1', async () => {
    const integration = await ok('getIntegrationByName', t.client.integrations.getIntegrationByName(NAME));
    expect(integration.urls.publicEndpoint).toBe(`${t.url}/integrations/${NAME}/integration`);
    expect(installation.urls.publicEndpoint).toBe(`${t.url}/integrations/${NAME}/installations/${installation.id}`);
  });

  it("turn a request into a fetch event and send back the integration's answer with the manifest's CSP", async () => {
    tunnel.answers.push((d) => ({
      status: 201,
      body: JSON.stringify({ got: d.fetchBody, method: d.event.request }),
      headers: { 'content-type': 'application/json', 'x-from': 'integration', connection: 'close' },
    }));
    const url = `${t.url}/integrations/${NAME}/installations/${installation.id}/spaces/${space}/hook?x=1`;
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer caller-secret', 'x-test': 'yes' },
      body: '{"hello":"world"}',
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-from')).toBe('integration');
    expect(res.headers.get('content-security-policy')).toBe("script-src 'self'; frame-ancestors 'none'");
    const body = (await res.json()) as { got: string };
    expect(body.got).toBe('{"hello":"world"}');

    const dispatch = tunnel.ofType('fetch').at(-1)!;
    expect(dispatch.event).toMatchObject({
      type: 'fetch',
      installationId: installation.id,
      spaceId: space,
      request: { method: 'post', url },
    });
    const request = dispatch.event.request as { headers: Record<string, string> };
    expect(request.headers['x-test']).toBe('yes');
    expect(request.headers.authorization).toBe('Bearer caller-secret'); // the integration checks its callers
    expect(dispatch.environment.spaceInstallation).toMatchObject({ space });

    const events = await ok('listIntegrationEvents', t.client.integrations.listIntegrationEvents(NAME));
    const recorded = events.items.find((e) => e.id === dispatch.event.eventId)!;
    expect(recorded.status).toBe('success');
    const stored = recorded.payload as { request: { headers: Record<string, string> } };
    expect(stored.request.headers.authorization).toBe('[redacted]');
  });

  it("answers GET on the integration's own endpoint without a fetch-body", async () => {
    const res = await fetch(`${t.url}/integrations/${NAME}/integration/oauth?code=abc`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('OK');
    const dispatch = tunnel.ofType('fetch').at(-1)!;
    expect(dispatch.fetchBody).toBeNull();
    expect(dispatch.event.installationId).toBeUndefined();
    expect(dispatch.environment.installation).toBeUndefined();
  });

  it('are 404 for an unknown integration, installation or space', async () => {
    for (const path of [
      '/integrations/nope/integration',
      `/integrations/${NAME}/installations/nope`,
      `/integrations/${NAME}/installations/${installation.id}/spaces/nope/x`,
    ]) {
      const res = await fetch(`${t.url}${path}`, { method: 'POST', body: 'x' });
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(404);
    }
  });

  it('are 502 in the GitBook error shape when the integration gives no answer', async () => {
    const down = await startIntegrationTunnel();
    await down.close();
    await raw(t, 'PUT', `/v1/integrations/${NAME}/dev`, { token: t.adminToken, body: { tunnelUrl: down.url } });
    const res = await fetch(`${t.url}/integrations/${NAME}/integration`);
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(502);
    expect(body.error.message).toMatch(/tunnel could not be reached/);
    await raw(t, 'PUT', `/v1/integrations/${NAME}/dev`, { token: t.adminToken, body: { tunnelUrl: tunnel.url } });
  });
});
