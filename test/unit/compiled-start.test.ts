import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { Tinypool } from 'tinypool';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CJS_RUNTIME_IMPORT,
  ensureServerBuilt,
  KEEP_EXTERNAL,
  serverBuildDecision,
  SERVER_OUT_DIR,
} from '../../scripts/build-server.mjs';
import { ROOT } from '../helpers/cli-process';
import { COMPILED_ENTRY, npmStartNodeFlags, startServerProcess } from '../helpers/server-process';
import { SyncClients, synced } from '../helpers/sync-clients';
import { waitFor } from '../helpers/wait';

/**
 * The production start runs compiled JavaScript: out/server/main.js, built from the sources by
 * scripts/build-server.mjs, started with plain `node` (no tsx), answers on a new data dir — the
 * database opens and migrates (the migrations are found from the bundle), the API answers, and the
 * parse pool's worker is a compiled bundle too.
 */
const run = promisify(execFile);
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'folio-compiled-'));
  await ensureServerBuilt();
}, 120_000);
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

it('the compiled bundle imports no TypeScript loader', async () => {
  const bundled = (await readdir(SERVER_OUT_DIR)).filter((f) => /\.c?js$/.test(f));
  const sources = await Promise.all(bundled.map((f) => readFile(join(SERVER_OUT_DIR, f), 'utf8')));
  const all = sources.join('\n');
  // The bundle is minified (no whitespace), so no space is assumed anywhere in these patterns.
  expect(all).not.toMatch(/(?:from|import)\s*\(?\s*["']tsx/);
  // The bundled parse pool names the worker bundle (the sources' worker-entry.mjs loads tsx).
  expect(all).toMatch(/true\s*\?\s*"[./]*out\/server\/markdown-worker\.js"/);
});

it("the server bundle imports packages at run time through its loader's import(), which the code cache keeps", async () => {
  const server = await readFile(join(SERVER_OUT_DIR, 'server.cjs'), 'utf8');
  const loader = await readFile(join(SERVER_OUT_DIR, 'main.js'), 'utf8');
  // Folio's own import() of a package left in node_modules (jose for visitor tokens, among others)…
  expect(server).toContain(`${CJS_RUNTIME_IMPORT}("jose")`);
  expect(server).not.toMatch(/[^\w.]import\("jose"\)/);
  // …calls the function main.js wraps the bundle with.
  expect(loader).toContain(CJS_RUNTIME_IMPORT);
});

it('the start path imports from node_modules only the packages kept out of the bundle on purpose', async () => {
  const info = JSON.parse(await readFile(join(SERVER_OUT_DIR, 'build-info.json'), 'utf8')) as {
    bootExternals: string[];
  };
  // A package new to the start path belongs in BOOT_PACKAGES (bundled) or, with its reason, in KEEP_EXTERNAL.
  expect(info.bootExternals.filter((name) => !KEEP_EXTERNAL.has(name))).toEqual([]);
  // The check has something to check: PGlite is imported at start, from node_modules.
  expect(info.bootExternals).toContain('@electric-sql/pglite');
});

it('starts from compiled JS and answers the API', async () => {
  const server = await startServerProcess('compiled', dataDir);
  try {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
    const auth = { authorization: `Bearer ${token}` };
    const me = await fetch(`${server.url}/v1/user`, { headers: auth });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { displayName: string }).displayName).toBe('Administrator');
    expect(server.output()).toMatch(/listening on/);
  } finally {
    expect(await server.stop()).toBe(0);
  }
}, 120_000);

it('runs the server through a code cache: written by the first start, read by the next, remade when refused', async () => {
  const caches = async () => (await readdir(SERVER_OUT_DIR)).filter((f) => /^server\.cjs\..+\.cache$/.test(f));
  const dir = await mkdtemp(join(tmpdir(), 'folio-code-cache-'));
  const startAndStop = async () => {
    const server = await startServerProcess('compiled', dir);
    expect(await server.stop()).toBe(0);
  };
  try {
    for (const name of await caches()) await rm(join(SERVER_OUT_DIR, name));
    // A start without a cache writes one (at the latest as it exits), named after the bundle.
    await startAndStop();
    const [name, ...others] = await caches();
    expect(others).toEqual([]);
    const bundle = await stat(join(SERVER_OUT_DIR, 'server.cjs'));
    expect(name).toBe(`server.cjs.${bundle.size}-${Math.round(bundle.mtimeMs)}.cache`);
    const file = join(SERVER_OUT_DIR, name!);
    const written = await readFile(file);
    expect(written.length).toBeGreaterThan(100_000);
    // The next start reads it, and V8 accepts it: a refused cache would be written again.
    await startAndStop();
    expect((await readFile(file)).equals(written)).toBe(true);
    // One V8 refuses (here: not a cache at all) does not stop the start, and is made again.
    await writeFile(file, 'not a code cache');
    await startAndStop();
    expect((await readFile(file)).length).toBeGreaterThan(100_000);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 180_000);

it('with --enable-source-maps, runs the bundle through Node’s own loader (which maps stack traces) and still imports packages', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-source-maps-'));
  try {
    const server = await startServerProcess('compiled', dir, undefined, [
      '--enable-source-maps',
      ...npmStartNodeFlags(),
      COMPILED_ENTRY,
    ]);
    try {
      // /reference/ imports @fastify/swagger-ui at run time, through the loader's import().
      const reference = await fetch(`${server.url}/reference/`);
      expect(reference.status, server.output()).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);

it('bundled packages work in the compiled server: validation, errors, metrics, the reference, live sync', async () => {
  // Fastify, Ajv, prom-client, ws and Yjs are bundled (BOOT_PACKAGES); Swagger UI stays in node_modules.
  const server = await startServerProcess('compiled', dataDir);
  const clients = new SyncClients();
  try {
    const token = (await readFile(join(dataDir, 'admin-token'), 'utf8')).trim();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const post = async (path: string, body: object) => {
      const res = await fetch(`${server.url}/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(res.status).toBe(201);
      return ((await res.json()) as { id: string }).id;
    };
    const orgId = await post('/orgs', { title: 'Compiled' });
    const spaceId = await post(`/orgs/${orgId}/spaces`, { title: 'Bundle check' });

    const invalid = await fetch(`${server.url}/v1/orgs/${orgId}/spaces?limit=many`, { headers });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: { code: 400, message: expect.stringContaining('limit') } });
    const missing = await fetch(`${server.url}/v1/spaces/no-such-space`, { headers });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 404 } });

    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('folio_http_requests_total{method="POST",route="/v1/orgs",status="201"} 1');
    expect(metrics).toContain('folio_process_resident_memory_bytes');
    const reference = await fetch(`${server.url}/reference/`);
    expect(reference.status, server.output()).toBe(200);
    expect(await reference.text()).toContain('swagger');

    const writer = clients.connect(server.url, spaceId, token);
    const reader = clients.connect(server.url, spaceId, token);
    await Promise.all([synced(writer), synced(reader)]);
    writer.text.insert(0, 'written through the bundle');
    await waitFor(
      () => reader.text.toString() === 'written through the bundle',
      10_000,
      'the edit to reach the reader',
    );
  } finally {
    clients.destroyAll();
    expect(await server.stop()).toBe(0);
  }
}, 120_000);

it("npm install's last step makes the embedded database's template with the compiled prepare.js", async () => {
  // The template is shared by every start of this checkout: here it exists already, so this checks the bundle runs.
  const { stdout } = await run(process.execPath, [join(SERVER_OUT_DIR, 'prepare.js')], { cwd: ROOT });
  const dir = /template ready in [\d.]+ s \((.+)\)/.exec(stdout)?.[1];
  expect(dir).toBeDefined();
  expect(await readFile(join(dir!, 'PG_VERSION'), 'utf8')).toMatch(/^\d+/);
}, 120_000);

it('the parse pool runs the compiled worker bundle in its threads', async () => {
  // The bundled pool names the worker bundle, not the tsx-loading worker-entry.mjs of the sources.
  const worker = join(SERVER_OUT_DIR, 'markdown-worker.js');
  const pool = new Tinypool({ filename: worker, minThreads: 0, maxThreads: 1, execArgv: [] });
  const { port1, port2 } = new MessageChannel();
  try {
    const request = {
      task: { kind: 'site', markdown: '# Title\n\n```js\nlet x = $1$;\n```\n\n$$a^2$$' },
      started: port2,
    };
    const result = (await pool.run(request, { transferList: [port2] })) as { value: { html: string } };
    expect(result.value.html).toContain('<h1');
    expect(result.value.html).toContain('class="katex');
  } finally {
    port1.close();
    await pool.destroy();
  }
});

it('rebuilds when the output is incomplete or a source it was built from changed or is gone', async () => {
  // A fake build in a temp dir, from one temp source: the decision reads only build-info.json and mtimes.
  const out = await mkdtemp(join(tmpdir(), 'folio-build-'));
  const source = join(out, 'source.ts');
  try {
    await writeFile(source, 'export {};');
    const past = new Date(Date.now() - 60_000);
    await utimes(source, past, past);
    expect(serverBuildDecision(out)).toMatchObject({
      build: true,
      reason: expect.stringContaining('no complete build'),
    });
    for (const entry of [
      'main.js',
      'cli.js',
      'markdown-worker.js',
      'saml-worker.js',
      'integration-sandbox-worker.js',
      'prepare.js',
      'server.cjs',
    ])
      await writeFile(join(out, entry), '');
    await writeFile(join(out, 'build-info.json'), JSON.stringify({ builtAt: Date.now(), inputs: [source] }));
    expect(serverBuildDecision(out)).toEqual({ build: false, reason: 'up to date' });
    const future = new Date(Date.now() + 60_000);
    await utimes(source, future, future);
    expect(serverBuildDecision(out)).toMatchObject({ build: true, reason: expect.stringContaining('changed since') });
    await rm(source);
    expect(serverBuildDecision(out)).toMatchObject({ build: true, reason: expect.stringContaining('is gone') });
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
