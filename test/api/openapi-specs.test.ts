import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAPISpecVisibility, type OpenAPISpec } from '@gitbook/api';
import { openApiSpecJob } from '../../sync-server/openapi-specs/process';
import { expectError, fails, ok, raw } from '../helpers/api';
import { assertMatchesGitBook } from '../helpers/gitbook-schema';
import { newMember } from '../helpers/members';
import { SPECS, startSpecServer, toYaml, type SpecServer } from '../helpers/openapi-spec-server';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * GitBook's "OpenAPI specs" group through the official client, every answer validated against
 * GitBook's schemas, on a server allowed to fetch from 127.0.0.1 only (FOLIO_OUTBOUND_ALLOW),
 * fed by local servers (helpers/openapi-spec-server.ts). Processing runs on the server's job
 * runner; the tests wait with `drain()` and move its clock past retry backoffs (no sleeps).
 */

let t: TestServer;
let specs: SpecServer;
let orgId: string;

beforeAll(async () => {
  specs = await startSpecServer();
  t = await startTestServer({ FOLIO_OUTBOUND_ALLOW: '127.0.0.1' });
  // Short fetch limits, so the server that never answers fails in a second rather than twenty.
  const { db, clock, config } = t.server.ctx;
  t.server.ctx.jobRunner.register(
    openApiSpecJob(
      { db, clock, outboundAllow: config.outboundAllow },
      { fetchTimeoutMs: 1000, connectTimeoutMs: 1000 },
    ),
  );
  orgId = (await t.client.orgs.createOrganization({ title: 'OpenAPI Org' })).data.id;
});
afterAll(async () => {
  await t?.close();
  await specs?.close();
});

const get = (slug: string) => ok('getOpenAPISpecBySlug', t.client.orgs.getOpenApiSpecBySlug(orgId, slug));

/**
 * Runs the spec's processing to its end: drains the job runner, and while the spec waits for a
 * retry, moves the clock past the backoff and drains again.
 */
async function processed(slug: string): Promise<OpenAPISpec> {
  for (let round = 0; round < 6; round++) {
    await t.server.ctx.jobRunner.drain();
    const spec = await get(slug);
    if (spec.processingState === 'complete') return spec;
    t.clock.advance(6 * 60_000);
  }
  throw new Error(`${slug} never finished processing`);
}

async function create(slug: string, source: { url: string } | { text: string }): Promise<OpenAPISpec> {
  const spec = await ok('createOpenAPISpec', t.client.orgs.createOpenApiSpec(orgId, { slug, source }), 201);
  expect(spec).toMatchObject({ object: 'openapi-spec', slug, processingState: 'pending', visibility: 'private' });
  return spec;
}

const latestContent = (slug: string) =>
  ok('getLatestOpenAPISpecVersionContent', t.client.orgs.getLatestOpenApiSpecVersionContent(orgId, slug));

type Filesystem = Record<
  string,
  { dir: string; isEntrypoint: boolean; references: string[]; filename: string; specification: Record<string, unknown> }
>;

describe('OpenAPI specs from URLs', () => {
  const cases = [
    ['v30-json', '/v30.json', '3.0.3', 'json'],
    ['v30-yaml', '/v30.yaml', '3.0.3', 'yaml'],
    ['v31-json', '/v31.json', '3.1.0', 'json'],
    ['v31-yaml', '/v31.yaml', '3.1.0', 'yaml'],
    ['v20-json', '/v20.json', '2.0', 'json'],
    ['v20-yaml', '/v20.yaml', '2.0', 'yaml'],
  ] as const;

  it('processes valid OpenAPI 3.0, 3.1 and Swagger 2.0 specs, in JSON and in YAML', async () => {
    for (const [slug, path] of cases) {
      const created = await create(slug, { url: `${specs.url}${path}` });
      expect(created.sourceURL).toBe(`${specs.url}${path}`);
      expect(created.lastVersion).toBeUndefined();
    }
    for (const [slug, path, version, format] of cases) {
      const spec = await processed(slug);
      expect(spec.lastProcessErrorCode, `${slug}: ${JSON.stringify(spec.lastProcessedErrors)}`).toBeUndefined();
      expect(spec.lastVersion).toBeTruthy();
      expect(spec.lastProcessedAt).toBeTruthy();
      expect(spec.lastProcessedErrorCount).toBe(0);
      expect(spec.permissions).toEqual({ view: true, edit: true });

      const latest = await ok('getLatestOpenAPISpecVersion', t.client.orgs.getLatestOpenApiSpecVersion(orgId, slug));
      expect(latest).toMatchObject({
        object: 'openapi-spec-version',
        id: spec.lastVersion,
        url: `${specs.url}${path}`,
      });
      const byId = await ok(
        'getOpenAPISpecVersionById',
        t.client.orgs.getOpenApiSpecVersionById(orgId, slug, latest.id),
      );
      expect(byId).toEqual(latest);

      const content = await latestContent(slug);
      const filesystem = content.filesystem as Filesystem;
      const entry = Object.values(filesystem).find((f) => f.isEntrypoint)!;
      expect(entry.filename).toBe(path.slice(1));
      expect(entry.specification.openapi ?? entry.specification.swagger).toBe(version);
      expect(content.urls).toEqual({ source: `${specs.url}${path}`, public: null });
      const byIdContent = await ok(
        'getOpenAPISpecVersionContentById',
        t.client.orgs.getOpenApiSpecVersionContentById(orgId, slug, latest.id),
      );
      expect(byIdContent).toEqual(content);

      const rawContent = await ok(
        'getLatestOpenAPISpecVersionContentRaw',
        t.client.orgs.getLatestOpenApiSpecVersionContentRaw(orgId, slug),
      );
      expect(rawContent.format).toBe(format);
      expect(rawContent.text).toBe(await (await fetch(`${specs.url}${path}`)).text());
    }
    const list = await ok('listOpenAPISpecs', t.client.orgs.listOpenApiSpecs(orgId));
    expect(list.items.map((s) => s.slug)).toEqual(expect.arrayContaining(cases.map((c) => c[0])));
  });

  it('fetches external $refs through the outbound fetcher and keeps them in the filesystem', async () => {
    await create('external', { url: `${specs.url}/ext/openapi.yaml` });
    const spec = await processed('external');
    expect(spec.lastProcessErrorCode, JSON.stringify(spec.lastProcessedErrors)).toBeUndefined();
    const filesystem = (await latestContent('external')).filesystem as Filesystem;
    expect(Object.keys(filesystem).sort()).toEqual(
      ['openapi.yaml', 'schemas/pet.yaml', 'schemas/common/tag.json', `${specs.url}/shared/owner.json`].sort(),
    );
    expect(filesystem['openapi.yaml']).toMatchObject({ isEntrypoint: true, dir: '.' });
    expect(filesystem['openapi.yaml']!.references.sort()).toEqual(
      ['schemas/pet.yaml', `${specs.url}/shared/owner.json`].sort(),
    );
    expect(filesystem['schemas/pet.yaml']).toMatchObject({
      isEntrypoint: false,
      dir: 'schemas',
      references: ['schemas/common/tag.json'],
    });
    expect(filesystem['schemas/common/tag.json']!.specification).toEqual({ type: 'string', maxLength: 20 });
    expect(specs.hits).toEqual(expect.arrayContaining(['/ext/schemas/pet.yaml', '/ext/schemas/common/tag.json']));
  });

  it('ends each broken source in the right error code, retrying only what a retry can help', async () => {
    const broken = [
      ['broken-yaml', '/broken.yaml', 'PARSE_ERROR', /not valid YAML/],
      ['invalid-spec', '/invalid.json', 'PARSE_ERROR', /version|description/],
      ['missing-ref', '/ext-missing.yaml', 'FETCH_ERROR', /404/],
      ['many-refs', '/many-refs.json', 'FETCH_ERROR', /more than 50 external files/],
      ['never-answers', '/hang', 'FETCH_TIMEOUT', /too long|in time/],
      ['too-large', '/huge.json', 'FETCH_ERROR', /larger than/],
      ['refused-redirect', '/redirect-refused', 'FETCH_ERROR', /127\.0\.0\.2/],
      ['unavailable', '/unavailable', 'FETCH_ERROR', /503/],
      // Internal addresses outside the allow-list, named directly: refused before any connection.
      [
        'refused-loopback',
        'http://127.0.0.2:9/v31.json',
        'FETCH_ERROR',
        /loopback address the server does not connect to/,
      ],
      ['refused-ipv6', 'http://[::1]:9/v31.json', 'FETCH_ERROR', /loopback address the server does not connect to/],
    ] as const;
    for (const [slug, path] of broken) await create(slug, { url: path.startsWith('/') ? `${specs.url}${path}` : path });
    for (const [slug, , code, message] of broken) {
      const spec = await processed(slug);
      expect(spec.processingState).toBe('complete');
      expect(spec.lastProcessErrorCode, slug).toBe(code);
      expect(spec.lastProcessedErrorCount, slug).toBeGreaterThanOrEqual(1);
      expect(spec.lastProcessedErrors![0]!.message, slug).toMatch(message);
      expect(spec.lastVersion, slug).toBeUndefined();
      await fails(t.client.orgs.getLatestOpenApiSpecVersion(orgId, slug), 404);
    }
    // Timeouts and 503s were tried three times; a refusal or a parse error once.
    const jobs = await t.server.ctx.db.query<{ subject: string; attempts: number; error_code: string }>(
      `SELECT j.subject, j.attempts, j.error_code FROM jobs j JOIN openapi_specs s ON j.subject = 'openapi:' || s.id
       WHERE s.organization_id = $1 AND s.slug = ANY($2::text[])`,
      [orgId, ['never-answers', 'unavailable', 'refused-redirect', 'broken-yaml']],
    );
    expect(jobs.map((j) => j.attempts).sort()).toEqual([1, 1, 3, 3]);
    // The redirect's target was checked before any connection: refused as an internal address.
    expect((await get('refused-redirect')).lastProcessedErrors![0]!.message).toMatch(/does not connect to/);
  });

  it('keeps serving the previous version after a failed update, and makes no version of unchanged content', async () => {
    const first = toYaml(SPECS.pets30).trimStart();
    specs.set('pets', first);
    await create('versions', { url: `${specs.url}/mutable/pets` });
    const v1 = await processed('versions');
    expect(v1.lastProcessErrorCode).toBeUndefined();

    // The same content again: processed, no new version.
    await ok(
      'createOrUpdateOpenAPISpecBySlug',
      t.client.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'versions', {
        source: { url: `${specs.url}/mutable/pets` },
      }),
    );
    const same = await processed('versions');
    expect(same.lastVersion).toBe(v1.lastVersion);

    // New content: a new version, newest first in the list.
    specs.set('pets', first.replace('Pets 3.0', 'Pets 3.0, second edition'));
    const updated = await ok(
      'createOrUpdateOpenAPISpecBySlug',
      t.client.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'versions', {
        source: { url: `${specs.url}/mutable/pets` },
      }),
    );
    expect(updated.processingState).toBe('pending');
    const v2 = await processed('versions');
    expect(v2.lastVersion).not.toBe(v1.lastVersion);
    const list = await ok('listOpenAPISpecVersions', t.client.orgs.listOpenApiSpecVersions(orgId, 'versions'));
    expect(list.items.map((v) => v.id)).toEqual([v2.lastVersion, v1.lastVersion]);

    // Broken content: the update fails, and the second version is still the one served.
    specs.set('pets', 'openapi: 3.0.3\ninfo: {title: broken\n');
    await ok(
      'createOrUpdateOpenAPISpecBySlug',
      t.client.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'versions', {
        source: { url: `${specs.url}/mutable/pets` },
      }),
    );
    const failed = await processed('versions');
    expect(failed).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'PARSE_ERROR' });
    expect(failed.lastVersion).toBe(v2.lastVersion);
    const latest = await ok(
      'getLatestOpenAPISpecVersion',
      t.client.orgs.getLatestOpenApiSpecVersion(orgId, 'versions'),
    );
    expect(latest.id).toBe(v2.lastVersion);
    const content = await latestContent('versions');
    expect(JSON.stringify(content.filesystem)).toContain('second edition');
    // The first version is still there, unchanged.
    const old = await ok(
      'getOpenAPISpecVersionContentById',
      t.client.orgs.getOpenApiSpecVersionContentById(orgId, 'versions', v1.lastVersion!),
    );
    expect(JSON.stringify(old.filesystem)).not.toContain('second edition');

    // A good update afterwards clears the error.
    specs.set('pets', first);
    await ok(
      'createOrUpdateOpenAPISpecBySlug',
      t.client.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'versions', {
        source: { url: `${specs.url}/mutable/pets` },
      }),
    );
    const fixed = await processed('versions');
    expect(fixed.lastProcessErrorCode).toBeUndefined();
    expect(fixed.lastProcessedErrorCount).toBe(0);
  });

  it('stays responsive while specs are fetched and parsed', async () => {
    await create('responsive-hang', { url: `${specs.url}/hang` });
    await create('responsive-huge', { url: `${specs.url}/huge.json` });
    const big = {
      ...SPECS.pets30,
      paths: Object.fromEntries(
        Array.from({ length: 3000 }, (_, i) => [`/things${i}/{id}`, SPECS.pets30.paths['/pets/{petId}']]).map(
          ([p, item]) => [
            p,
            {
              get: {
                ...(item as { get: object }).get,
                operationId: `thing${p}`,
                parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
              },
            },
          ],
        ),
      ),
    };
    await create('responsive-big', { text: JSON.stringify(big) });
    const draining = t.server.ctx.jobRunner.drain();
    const times: number[] = [];
    let done = false;
    void draining.finally(() => (done = true));
    while (!done) {
      const start = performance.now();
      const res = await fetch(`${t.url}/healthz`);
      expect(res.status).toBe(200);
      times.push(performance.now() - start);
      await new Promise((r) => setImmediate(r));
    }
    await draining;
    times.sort((a, b) => a - b);
    const p99 = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]!;
    console.log(`/healthz while processing: ${times.length} requests, p99 ${p99.toFixed(1)} ms`);
    expect(p99).toBeLessThan(500);
    expect((await processed('responsive-big')).lastProcessErrorCode).toBeUndefined();
  });
});

describe('OpenAPI specs from text', () => {
  it('processes JSON and YAML text, and refuses relative $refs it cannot resolve', async () => {
    await create('text-json', { text: JSON.stringify(SPECS.pets31) });
    await create('text-yaml', { text: toYaml(SPECS.pets20) });
    await create('text-relative', {
      text: JSON.stringify({
        ...SPECS.pets30,
        components: { schemas: { Pet: { $ref: './pet.yaml' } } },
      }),
    });
    const json = await processed('text-json');
    expect(json.lastProcessErrorCode).toBeUndefined();
    expect(json.sourceURL).toBeUndefined();
    const version = await ok(
      'getLatestOpenAPISpecVersion',
      t.client.orgs.getLatestOpenApiSpecVersion(orgId, 'text-json'),
    );
    expect(version.url).toBe(`${t.url}/v1/orgs/${orgId}/openapi/text-json/versions/${version.id}/content`);
    const yaml = await processed('text-yaml');
    expect(yaml.lastProcessErrorCode).toBeUndefined();
    const rawContent = await ok(
      'getLatestOpenAPISpecVersionContentRaw',
      t.client.orgs.getLatestOpenApiSpecVersionContentRaw(orgId, 'text-yaml'),
    );
    expect(rawContent).toEqual({ text: toYaml(SPECS.pets20), format: 'yaml' });
    const relative = await processed('text-relative');
    expect(relative.lastProcessErrorCode).toBe('PARSE_ERROR');
    expect(relative.lastProcessedErrors![0]!.message).toMatch(/relative/);
  });

  it('answers 4xx in GitBook’s error shape to bad input', async () => {
    const base = `/v1/orgs/${orgId}/openapi`;
    const post = (body: unknown) => raw(t, 'POST', base, { token: t.adminToken, body });
    expectError(await post({ slug: 'Bad_Slug!', source: { text: 'openapi: 3.0.0' } }), 400);
    expectError(await post({ slug: '-dash-first', source: { text: 'x' } }), 400);
    expectError(await post({ slug: 'a'.repeat(101), source: { text: 'x' } }), 400);
    expectError(await post({ slug: 'no-source' }), 400);
    expectError(await post({ source: { text: 'x' } }), 400);
    expectError(await post({ slug: 'both', source: { url: `${specs.url}/v30.json`, text: 'x' } }), 400);
    expectError(await post({ slug: 'empty', source: { text: '' } }), 400);
    expectError(await post({ slug: 'empty-source', source: {} }), 400);
    expectError(await post({ slug: 'not-a-url', source: { url: 'not a url' } }), 400);
    expectError(await post({ slug: 'ftp', source: { url: 'ftp://example.com/spec.yaml' } }), 400);
    expectError(await post({ slug: 'creds', source: { url: 'https://user:pw@example.com/spec.yaml' } }), 400);
    expectError(await post({ slug: 'long-url', source: { url: `https://example.com/${'a'.repeat(2100)}` } }), 400);
    const tooLarge = await raw(t, 'POST', base, {
      token: t.adminToken,
      body: { slug: 'too-large-text', source: { text: 'x'.repeat(9 * 1024 * 1024) } },
    });
    expect([400, 413]).toContain(tooLarge.status);
    expectError(tooLarge, tooLarge.status);
    // Nothing of those was created.
    const slugs = (await ok('listOpenAPISpecs', t.client.orgs.listOpenApiSpecs(orgId))).items.map((s) => s.slug);
    for (const s of ['no-source', 'both', 'empty', 'not-a-url', 'ftp', 'too-large-text'])
      expect(slugs).not.toContain(s);

    await create('taken', { text: JSON.stringify(SPECS.pets30) });
    expectError(await post({ slug: 'taken', source: { text: 'x' } }), 409);
    expectError(await raw(t, 'PUT', `${base}/taken`, { token: t.adminToken, body: {} }), 400);
    expectError(await raw(t, 'PATCH', `${base}/taken`, { token: t.adminToken, body: { visibility: 'everyone' } }), 400);
    expectError(await raw(t, 'PATCH', `${base}/taken`, { token: t.adminToken, body: {} }), 400);
    expectError(await raw(t, 'GET', `${base}/unknown-spec`, { token: t.adminToken }), 404);
    expectError(await raw(t, 'GET', `${base}/taken/versions/latest`, { token: t.adminToken }), 404);
    expectError(await raw(t, 'GET', `${base}/taken/versions/nosuchversion`, { token: t.adminToken }), 404);
    expectError(await raw(t, 'GET', `${base}/taken/versions/nosuchversion/content`, { token: t.adminToken }), 404);
    expectError(await raw(t, 'GET', `${base}/taken/versions?limit=0`, { token: t.adminToken }), 400);
    // A version id of another spec is unknown here.
    await processed('taken');
    const other = (await processed('v30-json')).lastVersion!;
    expectError(await raw(t, 'GET', `${base}/taken/versions/${other}`, { token: t.adminToken }), 404);
  });
});

describe('visibility, permissions and deletion', () => {
  it('serves the spec at its public URL only while it is public', async () => {
    await create('public-spec', { url: `${specs.url}/ext/openapi.yaml` });
    const spec = await processed('public-spec');
    const publicUrl = `${t.url}/v1/openapi/${orgId}/public-spec.json`;
    expect(spec.urls.published).toBeUndefined();
    expectError(await raw(t, 'GET', `/v1/openapi/${orgId}/public-spec.json`), 404);

    const made = await ok(
      'updateOpenAPISpecBySlug',
      t.client.orgs.updateOpenApiSpecBySlug(orgId, 'public-spec', { visibility: OpenAPISpecVisibility.Public }),
    );
    expect(made).toMatchObject({ visibility: 'public', urls: { published: publicUrl } });
    expect((await latestContent('public-spec')).urls.public).toBe(publicUrl);
    const res = await fetch(publicUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.0.3');
    // One document: the external files are inlined.
    expect(JSON.stringify(doc)).toContain('"maxLength":20');
    expect(JSON.stringify(doc)).not.toContain('schemas/pet.yaml');

    // Unknown organizations and slugs, and a public spec without a version yet, are 404s too.
    expectError(await raw(t, 'GET', `/v1/openapi/${orgId}/no-such-spec.json`), 404);
    expectError(await raw(t, 'GET', `/v1/openapi/nosuchorg/public-spec.json`), 404);

    await ok(
      'updateOpenAPISpecBySlug',
      t.client.orgs.updateOpenApiSpecBySlug(orgId, 'public-spec', { visibility: OpenAPISpecVisibility.Private }),
    );
    expectError(await raw(t, 'GET', `/v1/openapi/${orgId}/public-spec.json`), 404);
  });

  it('lets members see specs and only "create" members and admins change them', async () => {
    await create('guarded', { text: JSON.stringify(SPECS.pets30) });
    await processed('guarded');
    const reader = t.clientFor((await newMember(t, orgId, 'read')).token);
    const editor = t.clientFor((await newMember(t, orgId, 'edit')).token);
    const creator = t.clientFor((await newMember(t, orgId, 'create')).token);
    const outsider = t.clientFor(
      (await newMember(t, (await t.client.orgs.createOrganization({ title: 'Other' })).data.id, 'admin')).token,
    );

    const seen = await ok('getOpenAPISpecBySlug', reader.orgs.getOpenApiSpecBySlug(orgId, 'guarded'));
    expect(seen.permissions).toEqual({ view: true, edit: false });
    await ok('listOpenAPISpecVersions', reader.orgs.listOpenApiSpecVersions(orgId, 'guarded'));
    await ok('getLatestOpenAPISpecVersionContent', reader.orgs.getLatestOpenApiSpecVersionContent(orgId, 'guarded'));
    for (const client of [reader, editor]) {
      await fails(client.orgs.createOpenApiSpec(orgId, { slug: 'by-reader', source: { text: 'x' } }), 403);
      await fails(client.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'guarded', { source: { text: 'x' } }), 403);
      await fails(
        client.orgs.updateOpenApiSpecBySlug(orgId, 'guarded', { visibility: OpenAPISpecVisibility.Public }),
        403,
      );
      await fails(client.orgs.deleteOpenApiSpecBySlug(orgId, 'guarded'), 403);
    }
    await fails(outsider.orgs.getOpenApiSpecBySlug(orgId, 'guarded'), 404);
    await fails(outsider.orgs.listOpenApiSpecs(orgId), 404);
    // DELETE of what one cannot see answers like DELETE of what is not there.
    const outsiderDelete = await outsider.orgs.deleteOpenApiSpecBySlug(orgId, 'guarded');
    expect(outsiderDelete.status).toBe(204);

    const byCreator = await ok(
      'createOrUpdateOpenAPISpecBySlug',
      creator.orgs.createOrUpdateOpenApiSpecBySlug(orgId, 'by-creator', {
        source: { text: JSON.stringify(SPECS.pets31) },
      }),
      201,
    );
    expect(byCreator.permissions).toEqual({ view: true, edit: true });
    await processed('by-creator');

    // Deleting: 205 when it was there (versions go with it), 204 when it was not.
    await ok('deleteOpenAPISpecBySlug', creator.orgs.deleteOpenApiSpecBySlug(orgId, 'by-creator'), 205);
    await ok('deleteOpenAPISpecBySlug', creator.orgs.deleteOpenApiSpecBySlug(orgId, 'by-creator'), 204);
    await fails(t.client.orgs.getOpenApiSpecBySlug(orgId, 'by-creator'), 404);
    const left = await t.server.ctx.db.query(
      'SELECT v.id FROM openapi_spec_versions v LEFT JOIN openapi_specs s ON s.id = v.spec_id WHERE s.id IS NULL',
    );
    expect(left).toEqual([]);
  });

  it('a processing cut short by a dead process runs again, or shows as failed after its last attempt', async () => {
    const { db } = t.server.ctx;
    await create('interrupted', { text: JSON.stringify(SPECS.pets30) });
    const done = await processed('interrupted');
    const [row] = await db.query<{ job_id: string }>('SELECT job_id FROM openapi_specs WHERE id = $1', [done.id]);
    const jobId = row!.job_id;
    // As a kill -9 mid-run leaves it: the job running under a lease nobody renews, the spec in progress.
    const dieMidRun = async (attempts: 'one' | 'all') => {
      await db.query(`UPDATE openapi_specs SET processing_state = 'progress' WHERE id = $1`, [done.id]);
      await db.query(
        `UPDATE jobs SET state = 'running', attempts = ${attempts === 'one' ? '1' : 'max_attempts'},
           lease_owner = 'dead-process', lease_until = $2 WHERE id = $1`,
        [jobId, new Date(t.clock.now().getTime() - 1000)],
      );
    };
    await dieMidRun('one');
    const resumed = await processed('interrupted');
    expect(resumed.lastProcessErrorCode).toBeUndefined();
    expect(resumed.lastVersion).toBe(done.lastVersion);

    await dieMidRun('all');
    await t.server.ctx.jobRunner.drain();
    const failed = await get('interrupted');
    expect(failed).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'FETCH_ERROR' });
    expect(failed.lastProcessedErrors![0]!.message).toMatch(/stopped/);
    // The version made before is still served.
    expect(failed.lastVersion).toBe(done.lastVersion);
  });

  it('a deleted spec’s queued processing does nothing', async () => {
    await create('deleted-early', { text: JSON.stringify(SPECS.pets30) });
    await ok('deleteOpenAPISpecBySlug', t.client.orgs.deleteOpenApiSpecBySlug(orgId, 'deleted-early'), 205);
    await t.server.ctx.jobRunner.drain();
    await fails(t.client.orgs.getOpenApiSpecBySlug(orgId, 'deleted-early'), 404);
  });

  it('pages lists and validates every answer against GitBook’s schema', async () => {
    const page1 = await ok('listOpenAPISpecs', t.client.orgs.listOpenApiSpecs(orgId, { limit: 2 }));
    expect(page1.items).toHaveLength(2);
    expect(page1.next?.page).toBeTruthy();
    const page2 = await ok(
      'listOpenAPISpecs',
      t.client.orgs.listOpenApiSpecs(orgId, { limit: 2, page: page1.next!.page }),
    );
    expect(page2.items[0]!.id).not.toBe(page1.items[0]!.id);
    for (const spec of [...page1.items, ...page2.items]) assertMatchesGitBook('getOpenAPISpecBySlug', 200, spec);
  });
});
