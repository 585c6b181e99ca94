import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, startCompiledServer, type CompiledServer } from '../helpers/compiled-server';
import { bundleIntegration, INTEGRATION_FIXTURES } from '../helpers/integration-bundle';
import { waitFor } from '../helpers/wait';

/**
 * Integrations in the compiled server, as `npm start` runs it: the sandbox's worker bundle, its
 * QuickJS and its prelude are found and run from the build; a GitBook integration (written with
 * @gitbook/runtime, bundled as GitBook's CLI bundles it) is set up, answers on its public endpoint,
 * renders its block on a published page's editor call, calls the API back with its installation
 * token when the space changes; and hostile scripts fail their events while the server keeps
 * answering.
 */

let server: CompiledServer;
let org = '';
let space = '';

beforeAll(async () => {
  server = await startCompiledServer();
  org = (await server.client.orgs.createOrganization({ title: 'Integrations' })).data.id;
  space = (await server.client.orgs.createSpace(org, { title: 'Docs' })).data.id;
}, 120_000);
afterAll(async () => {
  await server?.close();
});

const api = (method: string, path: string, body?: unknown) => adminCall(server, method, path, body);

async function publish(name: string, script: string, extra: Record<string, unknown> = {}) {
  const res = await api('POST', `/integrations/${name}`, {
    title: name,
    description: 'A test integration',
    scopes: ['space:content:read'],
    script,
    organization: org,
    target: 'all',
    visibility: 'private',
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

async function install(name: string): Promise<string> {
  const res = await api('POST', `/integrations/${name}/installations`, { organization: org });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { id: string }).id;
}

type EventItem = { id: string; status: string; payload: { type: string } };

/** The integration's delivered event of `type`, once the compiled server's runner has delivered it. */
async function delivered(name: string, type: string): Promise<{ status: string; messages: string[] }> {
  const event = await waitFor(
    async () => {
      const list = await api('GET', `/integrations/${name}/events?limit=100`);
      return ((list.body?.items ?? []) as EventItem[]).find((e) => e.payload.type === type);
    },
    60_000,
    `${name}'s ${type} event`,
    200,
  );
  const got = await api('GET', `/integrations/${name}/events/${event!.id}`);
  const logs = (got.body?.trace as { logs: { message?: string }[] }).logs;
  return { status: event!.status, messages: logs.map((l) => l.message ?? '') };
}

const healthy = async () => (await fetch(`${server.url}/healthz`)).status;

describe('integrations in the compiled server', () => {
  it('runs a GitBook integration: set-up, its public endpoint, a block, and a call back on a content change', async () => {
    await publish('runtime-e2e', await bundleIntegration(`${INTEGRATION_FIXTURES}dispatch-e2e/src/index.js`), {
      blocks: [{ id: 'greeting', title: 'Greeting' }],
      contentSecurityPolicy: "script-src 'self'",
    });
    const installation = await install('runtime-e2e');
    const setup = await delivered('runtime-e2e', 'installation_setup');
    expect(setup.status).toBe('success');
    expect(setup.messages).toContain(`installation_setup for ${installation} of runtime-e2e`);

    const res = await fetch(`${server.url}/integrations/runtime-e2e/installations/${installation}/echo`, {
      method: 'POST',
      body: 'ping',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe("script-src 'self'");
    expect(await res.json()).toMatchObject({ method: 'POST', body: 'ping', installation });

    expect(
      (await api('POST', `/integrations/runtime-e2e/installations/${installation}/spaces`, { space })).status,
    ).toBe(201);
    const rendered = await api('POST', '/integrations/runtime-e2e/render', {
      componentId: 'greeting',
      props: { name: 'Ada' },
      context: { type: 'document', spaceId: space, editable: true, theme: 'light' },
    });
    expect(rendered.status, JSON.stringify(rendered.body)).toBe(200);
    expect(JSON.stringify(rendered.body)).toContain('Hello, Ada!');

    const cr = (await server.client.spaces.createChangeRequest(space, {})).data.id;
    const wrote = await api('POST', `/spaces/${space}/change-requests/${cr}/content`, {
      changes: [{ operation: 'insert_page', title: 'From the compiled server', document: { markdown: 'Hi.\n' } }],
    });
    expect(wrote.status, JSON.stringify(wrote.body)).toBe(200);
    await server.client.spaces.mergeChangeRequest(space, cr);
    // Earlier revisions of the space (its first, empty one) have their own events: wait for the merge's.
    const updated = await waitFor(
      async () => {
        const list = await api('GET', '/integrations/runtime-e2e/events?limit=100');
        for (const event of (list.body?.items ?? []) as EventItem[]) {
          if (event.payload.type !== 'space_content_updated') continue;
          const got = await api('GET', `/integrations/runtime-e2e/events/${event.id}`);
          const logs = (got.body?.trace as { logs: { message?: string }[] }).logs.map((l) => l.message ?? '');
          if (logs.includes('pages: From the compiled server')) return { status: event.status, logs };
        }
        return undefined;
      },
      60_000,
      'the space_content_updated event of the merge, listing its page',
      200,
    );
    expect(updated!.status).toBe('success');
  });

  it('fails the events of scripts that loop, allocate without bound or reach for the host, and keeps answering', async () => {
    // Each script, and what its event's trace must say stopped it.
    const hostile: Record<string, [string, RegExp]> = {
      'loops-forever': ['export default { async fetch() { for (;;) {} } };', /ms of CPU time/],
      'allocates-forever': [
        'export default { async fetch() { const a = []; for (;;) a.push(new Array(1e5).fill(1)); } };',
        // Near its memory limit QuickJS may collect garbage until the CPU limit comes first: either stops it.
        /out of memory|ms of CPU time/i,
      ],
      'reaches-for-process': [
        "export default { async fetch() { process.exit(1); return new Response('no'); } };",
        /'process' is not defined/,
      ],
      'reaches-for-files': [
        "export default { async fetch() { require('fs').readFileSync('/etc/passwd'); return new Response('no'); } };",
        /'require' is not defined/,
      ],
    };
    for (const [name, [script]] of Object.entries(hostile)) {
      await publish(name, script);
      await install(name);
    }
    // While the looping and allocating scripts run (seconds of CPU each), the server keeps answering.
    for (let i = 0; i < 5; i++) expect(await healthy()).toBe(200);
    for (const [name, [, reason]] of Object.entries(hostile)) {
      const setup = await delivered(name, 'installation_setup');
      expect(setup.status, name).toBe('failed');
      expect(setup.messages.join('\n'), name).toMatch(reason);
    }
    expect(await healthy()).toBe(200);
  });
});
