import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IntegrationCategory,
  IntegrationScope,
  IntegrationTarget,
  IntegrationVisibility,
  type Integration,
  type PublishIntegration,
} from '@gitbook/api';
import { expectError, fails, newUser, ok, raw, type TestUser } from '../helpers/api';
import { newMember } from '../helpers/members';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * GitBook's "Integrations" group (the integrations themselves) through the official client, every
 * answer validated against GitBook's schemas: publishing and republishing, images, sealed secrets,
 * visibility, list filters, unpublishing, development mode, and events (seeded in the database:
 * nothing dispatches them yet).
 */

let t: TestServer;
let orgId = '';
let admin: TestUser;
let reader: TestUser;
let guest: TestUser;
let outsider: TestUser;
let outsiderOrgId = '';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const png = (fill: number, size = 64) => Buffer.concat([PNG, Buffer.alloc(size, fill)]).toString('base64');
const SCRIPT = 'export default { fetch() { return new Response("the script body") } }';
const SECRET = 'sk_live_do_not_leak_42';

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.client.orgs.createOrganization({ title: 'Integrations Org' })).data.id;
  await t.client.orgs.updateOrganizationById(orgId, { hostname: 'integrations-org' });
  admin = await newMember(t, orgId, 'admin');
  reader = await newMember(t, orgId, 'read');
  guest = await newMember(t, orgId, null);
  outsider = await newUser(t, 'Integration outsider');
  outsiderOrgId = (await t.clientFor(outsider.token).orgs.createOrganization({ title: 'Elsewhere' })).data.id;
});
afterAll(async () => {
  await t?.close();
});

const manifest = (overrides: Partial<PublishIntegration> = {}): PublishIntegration => ({
  organization: orgId,
  title: 'Analytics Pro',
  description: 'Counts page views',
  script: SCRIPT,
  scopes: [IntegrationScope.SiteViewsRead],
  ...overrides,
});
const publish = (name: string, overrides: Partial<PublishIntegration> = {}, token = admin.token) =>
  ok('publishIntegration', t.clientFor(token).integrations.publishIntegration(name, manifest(overrides)));
const get = (name: string, token = admin.token) =>
  ok('getIntegrationByName', t.clientFor(token).integrations.getIntegrationByName(name));
const post = (name: string, body: unknown, token = admin.token) =>
  raw(t, 'POST', `/v1/integrations/${name}`, { token, body });

describe('publishing', () => {
  it("publishes version 1 with every field of GitBook's Integration, then the next version", async () => {
    const first = await publish('analytics-pro', {
      summary: '# Analytics\nLong text.',
      visibility: IntegrationVisibility.Public,
      target: IntegrationTarget.Site,
      categories: [IntegrationCategory.Analytics],
      blocks: [
        {
          id: 'chart',
          title: 'Chart',
          urlUnfurl: ['https://charts.example.com/**'],
          markdown: { codeblock: 'chart', body: 'data' },
        },
      ],
      contentSources: [{ id: 'feed', title: 'Feed', configuration: { componentId: 'feed-config' } }],
      externalLinks: [{ url: 'https://example.com/docs', label: 'Docs' }],
      configurations: {
        account: {
          properties: {
            workspace: { type: 'string', title: 'Workspace' },
            key: { type: 'string', title: 'API key' },
            verbose: { type: 'boolean', title: 'Verbose' },
          },
          required: ['key'],
        },
        site: { componentId: 'site-config' },
      },
      contentSecurityPolicy: { 'script-src': "'self'" },
      icon: png(1),
      previewImages: [png(2), png(3)],
      secrets: { API_KEY: SECRET },
    });
    expect(first).toMatchObject({
      object: 'integration',
      name: 'analytics-pro',
      version: 1,
      title: 'Analytics Pro',
      target: 'site',
      visibility: 'public',
      verified: false,
      scopes: ['site:views:read'],
      categories: ['analytics'],
      owner: { object: 'organization', id: orgId },
      permissions: { admin: true },
      contentSecurityPolicy: { 'script-src': "'self'" },
    });
    expect(first.configurations?.account).toEqual({
      properties: {
        workspace: { type: 'string', title: 'Workspace' },
        key: { type: 'string', title: 'API key' },
        verbose: { type: 'boolean', title: 'Verbose' },
      },
      required: ['key'],
    });
    // The form's fields come in the order the publisher wrote them, read back from storage too.
    const fields = (i: typeof first) => Object.keys((i.configurations?.account as { properties: object }).properties);
    expect(fields(first)).toEqual(['workspace', 'key', 'verbose']);
    expect(fields(await get('analytics-pro', reader.token))).toEqual(['workspace', 'key', 'verbose']);
    expect(first.urls.location).toBe(`${t.url}/v1/integrations/analytics-pro`);
    expect(first.previewImages).toHaveLength(2);
    const text = JSON.stringify(first);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('the script body');

    const second = await publish('analytics-pro', { title: 'Analytics Max', visibility: IntegrationVisibility.Public });
    expect(second).toMatchObject({ version: 2, title: 'Analytics Max', target: 'all', categories: [], blocks: [] });
    expect(second.urls.icon).toBeUndefined();
    expect((await get('analytics-pro', reader.token)).permissions.admin).toBe(false);
  });

  it("publishes under the organization's hostname, and 404s an organization nobody has or the caller is not in", async () => {
    expect((await publish('by-hostname', { organization: 'integrations-org' })).owner.id).toBe(orgId);
    expectError(await post('nowhere', manifest({ organization: 'no-such-org' })), 404, /no-such-org/);
    expectError(await post('not-mine', manifest(), outsider.token), 404);
  });

  it("takes admins only, and never another organization's integration", async () => {
    expectError(await post('by-reader', manifest(), reader.token), 403, /admin/);
    expectError(await post('by-guest', manifest(), guest.token), 403);
    await publish('taken-name');
    expectError(
      await post('taken-name', manifest({ organization: outsiderOrgId }), outsider.token),
      409,
      /another organization/,
    );
    expect((await get('taken-name')).version).toBe(1);
  });

  it('seals the secrets at rest and returns them nowhere', async () => {
    await publish('with-secrets', {
      secrets: { API_KEY: SECRET, OTHER: 'two' },
      visibility: IntegrationVisibility.Public,
    });
    const [row] = await t.server.ctx.db.query<{ secrets_sealed: string; script: string }>(
      'SELECT secrets_sealed, script FROM integrations WHERE name = $1',
      ['with-secrets'],
    );
    expect(row!.secrets_sealed).toMatch(/^v1:/);
    expect(row!.secrets_sealed).not.toContain(SECRET);
    expect(JSON.parse(t.server.ctx.secrets.open(row!.secrets_sealed, 'integration:with-secrets'))).toEqual({
      API_KEY: SECRET,
      OTHER: 'two',
    });
    expect(row!.script).toBe(SCRIPT);
    const answers = [
      await raw(t, 'GET', '/v1/integrations/with-secrets', { token: admin.token }),
      await raw(t, 'GET', '/v1/integrations?limit=1000', { token: admin.token }),
      await raw(t, 'GET', `/v1/orgs/${orgId}/integrations?limit=1000`, { token: admin.token }),
    ];
    for (const res of answers) expect(JSON.stringify(res.body)).not.toContain(SECRET);
    // A republish without secrets has none any more.
    await publish('with-secrets');
    const [after] = await t.server.ctx.db.query<{ secrets_sealed: string | null }>(
      'SELECT secrets_sealed FROM integrations WHERE name = $1',
      ['with-secrets'],
    );
    expect(after!.secrets_sealed).toBeNull();
  });

  it('answers a clear 400 to what it cannot take', async () => {
    const cases: [string, unknown, RegExp?][] = [
      ['bad-title', manifest({ title: 'A' })],
      ['no-script', { ...manifest(), script: undefined }],
      ['bad-scope', manifest({ scopes: ['space:views:read' as IntegrationScope] })],
      ['extra-field', { ...manifest(), surprise: true }],
      [
        'dup-blocks',
        manifest({
          blocks: [
            { id: 'a', title: 'Aa' },
            { id: 'a', title: 'Bb' },
          ],
        }),
        /used twice/,
      ],
      [
        'both-forms',
        manifest({ configurations: { space: { componentId: 'c', properties: {} } as never } }),
        /either componentId or properties/,
      ],
      [
        'unknown-required',
        manifest({ configurations: { account: { properties: {}, required: ['missing'] } } }),
        /"missing" is not one of its properties/,
      ],
      [
        'bad-default',
        manifest({ configurations: { account: { properties: { n: { type: 'number', default: 'x' } as never } } } }),
        /must be a number/,
      ],
      [
        'button-without-url',
        manifest({ configurations: { account: { properties: { b: { type: 'button' } as never } } } }),
        /callback_url and button_text/,
      ],
      ['script-link', manifest({ externalLinks: [{ url: 'javascript:alert(1)', label: 'x' }] }), /http\(s\)/],
      ['too-many-secrets', manifest({ secrets: Object.fromEntries([...Array(21).keys()].map((i) => [`K${i}`, 'v'])) })],
      ['bad-secret-name', manifest({ secrets: { 'not ok': 'v' } })],
      ['not-base64', manifest({ icon: 'data:image/png;base64,AAAA' }), /not base64/],
      ['svg-icon', manifest({ icon: Buffer.from('<svg onload="alert(1)"/>').toString('base64') }), /PNG, JPEG/],
      ['huge-icon', manifest({ icon: png(1, 300 * 1024) })],
      ['four-previews', manifest({ previewImages: [png(1), png(2), png(3), png(4)] })],
      ['...', manifest(), /dots only/],
    ];
    for (const [name, body, message] of cases) expectError(await post(name, body), 400, message);
    expectError(await post('bad%20name', manifest()), 400);
    expect((await raw(t, 'GET', '/v1/integrations/bad-title', { token: admin.token })).status).toBe(404);
  });
});

describe('images', () => {
  it('serves the icon and preview images without a token, and only while the integration has them', async () => {
    const published = await publish('pictured', { icon: png(7), previewImages: [png(8)] });
    const icon = await fetch(published.urls.icon!);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(icon.headers.get('x-content-type-options')).toBe('nosniff');
    expect(icon.headers.get('cache-control')).toContain('immutable');
    expect(Buffer.from(await icon.arrayBuffer()).toString('base64')).toBe(png(7));
    const preview = await fetch(published.previewImages[0]!);
    expect(Buffer.from(await preview.arrayBuffer()).toString('base64')).toBe(png(8));

    const republished = await publish('pictured', { icon: png(9) });
    expect(republished.urls.icon).not.toBe(published.urls.icon);
    expect((await fetch(published.urls.icon!)).status).toBe(404);
    expect((await fetch(republished.urls.icon!)).status).toBe(200);
    expectError(await raw(t, 'GET', '/v1/integrations/pictured/assets/not-a-digest.png'), 404);
    const wrongExtension = republished.urls.icon!.replace(/\.png$/, '.gif');
    expect((await fetch(wrongExtension)).status).toBe(404);
  });
});

describe('visibility and lists', () => {
  beforeAll(async () => {
    await publish('vis-private', { visibility: IntegrationVisibility.Private, title: 'Hidden Tool' });
    await publish('vis-unlisted', { visibility: IntegrationVisibility.Unlisted, title: 'Quiet Tool' });
    await publish('vis-public', {
      visibility: IntegrationVisibility.Public,
      title: 'Embed Tool',
      target: IntegrationTarget.Space,
      categories: [IntegrationCategory.Content],
      scopes: [IntegrationScope.SpaceContentRead],
      blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://www.Embeds.example/watch?v=**'] }],
    });
    await ok(
      'publishIntegration',
      t
        .clientFor(outsider.token)
        .integrations.publishIntegration(
          'elsewhere-public',
          manifest({ organization: outsiderOrgId, visibility: IntegrationVisibility.Public, title: 'Other Tool' }),
        ),
    );
    await ok(
      'publishIntegration',
      t
        .clientFor(outsider.token)
        .integrations.publishIntegration(
          'elsewhere-private',
          manifest({ organization: outsiderOrgId, title: 'Their Secret Tool' }),
        ),
    );
  });

  const names = (list: { items: Integration[] }) => list.items.map((i) => i.name);
  const listed = async (query: Parameters<TestServer['client']['integrations']['listIntegrations']>[0] = {}) =>
    names(
      await ok('listIntegrations', t.clientFor(admin.token).integrations.listIntegrations({ limit: 1000, ...query })),
    );

  it('shows a private integration to its organization only, and an unlisted one to anyone who names it', async () => {
    expect((await get('vis-private', reader.token)).name).toBe('vis-private');
    for (const token of [outsider.token, guest.token])
      await fails(t.clientFor(token).integrations.getIntegrationByName('vis-private'), 404);
    const unlisted = await get('vis-unlisted', outsider.token);
    expect(unlisted).toMatchObject({ visibility: 'unlisted', permissions: { admin: false } });
    expect(unlisted.owner.permissions.view).toBe(false);
  });

  it("lists public integrations only, with GitBook's filters", async () => {
    const all = await listed();
    expect(all).toEqual(expect.arrayContaining(['vis-public', 'elsewhere-public']));
    expect(all).not.toContain('vis-private');
    expect(all).not.toContain('vis-unlisted');
    expect(await listed({ search: 'embed' })).toEqual(['vis-public']);
    expect(await listed({ search: 'VIS-PUB' })).toEqual(['vis-public']);
    expect(await listed({ search: '%' })).toEqual([]);
    expect(await listed({ category: IntegrationCategory.Content })).toEqual(['vis-public']);
    expect(await listed({ scope: IntegrationScope.SpaceContentRead })).toEqual(['vis-public']);
    expect(await listed({ blockDomain: 'www.embeds.example' })).toEqual(['vis-public']);
    expect(await listed({ blockDomain: 'embeds.example' })).toEqual([]);
    expect(await listed({ blocks: true })).toEqual(['vis-public']);
    expect(await listed({ blocks: false })).not.toContain('vis-public');
    expect(await listed({ contentSources: true })).not.toContain('vis-public');
    const forSpaces = await listed({ target: IntegrationTarget.Space });
    expect(forSpaces).toEqual(expect.arrayContaining(['vis-public', 'elsewhere-public']));
    expect(await listed({ target: IntegrationTarget.Site })).not.toContain('vis-public');
    expect(await listed({ owner: outsiderOrgId })).toEqual(['elsewhere-public']);
    expect(await listed({ owner: 'integrations-org' })).not.toContain('elsewhere-public');
    expect(await listed({ owner: 'nobody-at-all' })).toEqual([]);
    expectError(await raw(t, 'GET', '/v1/integrations?category=nope', { token: admin.token }), 400);
    expectError(await raw(t, 'GET', '/v1/integrations?blockDomain=a%20b', { token: admin.token }), 400);
  });

  it('pages through a list', async () => {
    const client = t.clientFor(admin.token).integrations;
    const first = await ok('listIntegrations', client.listIntegrations({ limit: 1 }));
    expect(first.items).toHaveLength(1);
    expect(first.next?.page).toBeTruthy();
    const second = await ok('listIntegrations', client.listIntegrations({ limit: 1, page: first.next!.page }));
    expect(second.items[0]!.name).not.toBe(first.items[0]!.name);
  });

  it("lists the organization's own integrations, private and unlisted, to its members", async () => {
    const ours = names(
      await ok(
        'listOrganizationIntegrations',
        t.clientFor(reader.token).orgs.listOrganizationIntegrations(orgId, { limit: 1000 }),
      ),
    );
    expect(ours).toEqual(expect.arrayContaining(['vis-private', 'vis-unlisted', 'vis-public', 'elsewhere-public']));
    expect(ours).not.toContain('elsewhere-private');
    const theirs = names(
      await ok(
        'listOrganizationIntegrations',
        t.clientFor(outsider.token).orgs.listOrganizationIntegrations(outsiderOrgId, { limit: 1000 }),
      ),
    );
    expect(theirs).toContain('elsewhere-private');
    expect(theirs).not.toContain('vis-private');
    await fails(t.clientFor(outsider.token).orgs.listOrganizationIntegrations(orgId), 404);
    await fails(t.clientFor(guest.token).orgs.listOrganizationIntegrations(orgId), 403);
  });
});

describe('unpublishing', () => {
  it("deletes with its images (205), then answers 204; only the owner organization's admins may", async () => {
    const published = await publish('short-lived', { icon: png(5), visibility: IntegrationVisibility.Public });
    const hidden = await publish('short-lived-private', { visibility: IntegrationVisibility.Private });
    await fails(t.clientFor(reader.token).integrations.unpublishIntegration('short-lived'), 403);
    await fails(t.clientFor(outsider.token).integrations.unpublishIntegration('short-lived'), 403);
    // What the caller cannot see is as good as gone to them: 204, and nothing happens.
    await ok('unpublishIntegration', t.clientFor(outsider.token).integrations.unpublishIntegration(hidden.name), 204);
    expect((await get(hidden.name)).name).toBe(hidden.name);

    await ok('unpublishIntegration', t.clientFor(admin.token).integrations.unpublishIntegration('short-lived'), 205);
    await fails(t.clientFor(admin.token).integrations.getIntegrationByName('short-lived'), 404);
    expect((await fetch(published.urls.icon!)).status).toBe(404);
    await ok('unpublishIntegration', t.clientFor(admin.token).integrations.unpublishIntegration('short-lived'), 204);
  });
});

describe('development mode', () => {
  const devRow = async (name: string) =>
    (
      await t.server.ctx.db.query<{ dev_tunnel_url: string | null; dev_all: boolean }>(
        'SELECT dev_tunnel_url, dev_all FROM integrations WHERE name = $1',
        [name],
      )
    )[0]!;

  it('stores the tunnel, keeps it across a republish, and turns off', async () => {
    await publish('in-dev');
    const client = t.clientFor(admin.token).integrations;
    await ok(
      'setIntegrationDevelopmentMode',
      client.setIntegrationDevelopmentMode('in-dev', { tunnelUrl: 'https://tunnel.example.com/x', all: true }),
      204,
    );
    expect(await devRow('in-dev')).toEqual({ dev_tunnel_url: 'https://tunnel.example.com/x', dev_all: true });
    await publish('in-dev');
    expect((await devRow('in-dev')).dev_tunnel_url).toBe('https://tunnel.example.com/x');
    await ok('disableIntegrationDevelopmentMode', client.disableIntegrationDevelopmentMode('in-dev'), 205);
    expect(await devRow('in-dev')).toEqual({ dev_tunnel_url: null, dev_all: false });
    // GitBook's spec has only the 205; a DELETE of what does not exist is a 204, as everywhere in Folio.
    expect((await raw(t, 'DELETE', '/v1/integrations/no-such-thing/dev', { token: admin.token })).status).toBe(204);
  });

  it('refuses tunnels the outbound fetcher would not reach, and callers who are not owner admins', async () => {
    await publish('dev-checks');
    const put = (tunnelUrl: string, token = admin.token) =>
      raw(t, 'PUT', '/v1/integrations/dev-checks/dev', { token, body: { tunnelUrl } });
    for (const url of ['ftp://tunnel.example.com/', 'https://user:pw@tunnel.example.com/', 'not a url'])
      expectError(await put(url), 400, /tunnelUrl/);
    for (const url of ['http://127.0.0.1:8787/', 'http://localhost:8787/', 'http://[::1]/', 'http://10.0.0.2/'])
      expectError(await put(url), 400, /does not connect/);
    expectError(await put('https://tunnel.example.com/', reader.token), 403);
    expectError(await raw(t, 'PUT', '/v1/integrations/dev-checks/dev', { token: admin.token, body: {} }), 400);
    expectError(await put('https://tunnel.example.com/'.padEnd(300, 'x')), 400);
    expectError(
      await raw(t, 'PUT', '/v1/integrations/no-such-thing/dev', {
        token: admin.token,
        body: { tunnelUrl: 'https://tunnel.example.com/' },
      }),
      404,
    );
    await fails(t.clientFor(reader.token).integrations.disableIntegrationDevelopmentMode('dev-checks'), 403);
  });
});

describe('events', () => {
  const seed = async (id: string, status: string, minute: number, trace: unknown[] = []) => {
    const at = new Date(Date.UTC(2025, 0, 1, 12, minute));
    await t.server.ctx.db.query(
      `INSERT INTO integration_events (id, integration_name, installation_id, type, payload, status, trace, created_at, updated_at)
       VALUES ($1, 'evented', 'inst1', 'installation_setup', $2, $3, $4, $5, $5)`,
      [
        id,
        JSON.stringify({ eventId: id, type: 'installation_setup', installationId: 'inst1', status: 'active' }),
        status,
        JSON.stringify(trace),
        at,
      ],
    );
  };

  beforeAll(async () => {
    await publish('evented', { visibility: IntegrationVisibility.Public });
    await seed('ev1', 'success', 1, [{ level: 'info', message: 'hello', timestamp: '2025-01-01T12:01:01Z' }]);
    await seed('ev2', 'failed', 2, [
      { level: 'error', message: 'boom' },
      { level: 'loud', message: 7 },
    ]);
    await seed('ev3', 'pending', 3);
  });

  it('lists delivered events newest first, in pages', async () => {
    const client = t.clientFor(admin.token).integrations;
    const list = await ok('listIntegrationEvents', client.listIntegrationEvents('evented'));
    expect(list.items.map((e) => [e.id, e.status])).toEqual([
      ['ev2', 'failed'],
      ['ev1', 'success'],
    ]);
    expect(list.items[0]).toMatchObject({ integrationId: 'evented', installationId: 'inst1' });
    const page = await ok('listIntegrationEvents', client.listIntegrationEvents('evented', { limit: 1 }));
    expect(page.items.map((e) => e.id)).toEqual(['ev2']);
    expect(page.next?.page).toBeTruthy();
  });

  it('gives one event with its trace', async () => {
    const client = t.clientFor(admin.token).integrations;
    const one = await ok('getIntegrationEvent', client.getIntegrationEvent('evented', 'ev1'));
    expect(one.event.payload).toMatchObject({ type: 'installation_setup', eventId: 'ev1' });
    expect(one.trace?.logs).toEqual([{ level: 'info', message: 'hello', timestamp: '2025-01-01T12:01:01.000Z' }]);
    const failed = await ok('getIntegrationEvent', client.getIntegrationEvent('evented', 'ev2'));
    expect(failed.trace?.logs).toEqual([{ level: 'error', message: 'boom' }, {}]);
    await fails(client.getIntegrationEvent('evented', 'ev3'), 404);
    await fails(client.getIntegrationEvent('evented', 'nope'), 404);
  });

  it("are the owner organization's admins' to read", async () => {
    await fails(t.clientFor(reader.token).integrations.listIntegrationEvents('evented'), 403);
    await fails(t.clientFor(outsider.token).integrations.getIntegrationEvent('evented', 'ev1'), 403);
    await fails(t.clientFor(admin.token).integrations.listIntegrationEvents('no-such-thing'), 404);
  });
});
