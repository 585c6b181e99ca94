import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentDoc } from '../../shared/doc';
import { spaceContentDoc } from '../../shared/sync-contract';
import { ok, raw } from '../helpers/api';
import { httpGet } from '../helpers/http-get';
import { startIntegrationTunnel, type IntegrationTunnel, type ReceivedDispatch } from '../helpers/integration-tunnel';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Integration blocks on the published site (issue 32): a page holding `{% @integration/block … %}`
 * of an integration installed on its space shows what the integration's script draws (a `ui_render`
 * to a development tunnel on 127.0.0.1, answered with ContentKit), escaped and with `markdown`
 * through the site's sanitizer; the render is reused by the next reader; a block of an integration
 * that is not installed, or whose script fails, is a quiet placeholder with the block's title.
 */

let t: TestServer;
let tunnel: IntegrationTunnel;
let spaceId = '';
let siteId = '';

const NAME = 'charts';
const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>';

const get = (path: string) => httpGet(t.url, path, {});
const site = (rest = '') => `/sites/${siteId}/${rest}`;
const renders = () => tunnel.ofType('ui_render');

/** What the integration's script answers to a ui_render (GitBook's ContentKitRenderOutput). */
function answer(d: ReceivedDispatch) {
  if (d.event.type !== 'ui_render') return { status: 200, body: 'OK' };
  if (d.event.componentId === 'broken') return { status: 500, body: '{"error":"boom"}' };
  const props = d.event.props as Record<string, string>;
  const output = {
    type: 'element',
    state: { note: 'from **state**' },
    props,
    element: {
      type: 'block',
      children: [
        { type: 'text', style: 'bold', children: `Chart of ${props.title ?? '?'}` },
        { type: 'text', children: HOSTILE },
        { type: 'markdown', content: `A *markdown* body <script>alert(3)</script>` },
        { type: 'markdown', content: { $state: 'note' } },
        { type: 'button', label: 'Evil', onPress: { action: '@ui.url.open', url: 'javascript:alert(4)' } },
        { type: 'webframe', source: { url: 'https://frames.example.com/chart' }, aspectRatio: 1.5 },
      ],
    },
  };
  return { status: 200, body: JSON.stringify(output), headers: { 'content-type': 'application/json' } };
}

beforeAll(async () => {
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
  tunnel = await startIntegrationTunnel();
  const orgId = (await t.client.orgs.createOrganization({ title: 'Blocks Org' })).data.id;
  spaceId = (await t.client.orgs.createSpace(orgId, { title: 'Docs' })).data.id;
  const published = await raw(t, 'POST', `/v1/integrations/${NAME}`, {
    token: t.adminToken,
    body: {
      title: 'Charts',
      description: 'Charts in pages',
      scopes: [],
      script: 'export default {}',
      organization: orgId,
      target: 'all',
      visibility: 'public',
      blocks: [
        { id: 'chart', title: 'Chart', description: 'A chart' },
        { id: 'broken', title: 'Broken chart', description: 'Its script fails' },
      ],
    },
  });
  expect(published.status, JSON.stringify(published.body)).toBeLessThan(300);
  const dev = await raw(t, 'PUT', `/v1/integrations/${NAME}/dev`, {
    token: t.adminToken,
    body: { tunnelUrl: tunnel.url },
  });
  expect(dev.status).toBe(204);
  const installation = await ok(
    'installIntegration',
    t.client.integrations.installIntegration(NAME, { organization: orgId }),
    201,
  );
  await ok(
    'installIntegrationOnSpace',
    t.client.integrations.installIntegrationOnSpace(NAME, installation.id, { space: spaceId }),
    201,
  );
  tunnel.answers.push(...Array.from({ length: 50 }, () => answer));
  await t.server.ctx.hub.change(spaceContentDoc(spaceId), (doc) => {
    const c = new ContentDoc(doc);
    c.createPage({
      title: 'Sales',
      slug: 'sales',
      markdown: `Before the chart.\n\n{% @${NAME}/chart title="Sales & <Co>" year=2024 %}\n\nAfter the chart.\n`,
    });
    c.createPage({
      title: 'Unavailable',
      slug: 'unavailable',
      markdown: [
        'Intro.',
        '{% @not-installed/widget a="1" %}',
        `{% @${NAME}/broken %}`,
        '```liquid',
        `{% @${NAME}/chart title="in code" %}`,
        '```',
        'Outro.',
      ].join('\n\n'),
    });
  });
  await t.server.ctx.snapshots.revise(spaceId);
  siteId = (await t.client.orgs.createSite(orgId, { title: 'Blocks Site', spaces: [spaceId] })).data.id;
  await t.client.orgs.publishSite(orgId, siteId);
}, 60_000);
afterAll(async () => {
  await tunnel?.close();
  await t?.close();
});

describe('integration blocks on the published site', () => {
  it('draws what the script renders, escaped, with markdown sanitized and frames sandboxed', async () => {
    const res = await get(site('sales'));
    expect(res.status).toBe(200);
    const html = res.body;
    const [render] = renders();
    expect(render?.event).toMatchObject({
      type: 'ui_render',
      componentId: 'chart',
      props: { title: 'Sales & <Co>', year: 2024 },
      context: { type: 'document', spaceId, editable: false },
    });
    expect(html).toContain('Before the chart.');
    expect(html).toContain('After the chart.');
    expect(html).not.toContain('{% @charts');
    expect(html).toContain('<div class="folio-ck"><div class="ck-block">');
    expect(html).toContain('<strong>Chart of Sales &#38; &#60;Co&#62;</strong>');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    const article = html.slice(html.indexOf('<article>'));
    expect(article).not.toMatch(/<script>alert|<img src=x|href="javascript:/);
    expect(article).toContain('<button type="button" class="ck-button ck-button-secondary" disabled>Evil</button>');
    // `markdown` elements went through the site's markdown path: formatted, their HTML sanitized.
    expect(html).toContain('<em>markdown</em>');
    expect(html).toContain('<strong>state</strong>');
    expect(html).toContain('<iframe src="https://frames.example.com/chart" sandbox="allow-scripts"');
    expect(res.headers['content-security-policy']).toContain('frame-src https:');
    // The site's stylesheet draws it.
    expect(html).toContain('.folio-ck .ck-block{');
  });

  it('reuses the render for the next reader', async () => {
    const before = renders().length;
    const again = await get(site('sales'));
    expect(again.status).toBe(200);
    expect(again.body).toContain('Chart of Sales');
    expect(renders().length).toBe(before);
  });

  it('shows a quiet placeholder for a block it cannot draw, and leaves tags in code alone', async () => {
    const res = await get(site('unavailable'));
    expect(res.status).toBe(200);
    const html = res.body;
    expect(html).toContain('Intro.');
    expect(html).toContain('Outro.');
    // Not installed: titled by its name; the script failed: titled by the manifest. No reasons for visitors.
    expect(html).toContain(
      '<div class="folio-ck-placeholder" role="note" data-integration-block="unavailable"><strong>not-installed/widget</strong></div>',
    );
    expect(html).toContain('<strong>Broken chart</strong></div>');
    expect(html).not.toContain('boom');
    expect(renders().some((d) => d.event.componentId === 'broken')).toBe(true);
    // In a code block the tag is code.
    expect(html).toContain('in code');
    expect(renders().some((d) => (d.event.props as Record<string, unknown>).title === 'in code')).toBe(false);
  });
});
