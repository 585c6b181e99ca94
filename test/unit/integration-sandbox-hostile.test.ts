import { afterAll, describe, expect, it } from 'vitest';
import { createIntegrationSandbox, type SandboxHost, type SandboxRequest } from '../../sync-server/integration-sandbox';

/**
 * Hostile scripts: each fails with the failure its kind calls for, the main thread's event loop
 * keeps running meanwhile (QuickJS runs on a worker thread), and the next run succeeds.
 */
const sandbox = createIntegrationSandbox({ limits: { cpuMs: 1_000, wallMs: 2_000, memoryBytes: 16 * 1024 * 1024 } });
afterAll(() => sandbox.close());

const request: SandboxRequest = {
  method: 'GET',
  url: 'https://integrations.folio.test/v1',
  headers: [],
  body: new Uint8Array(),
};
const fetched: string[] = [];
const host: SandboxHost = {
  fetch: async (r) => {
    fetched.push(r.url);
    return { status: 200, headers: [], body: new TextEncoder().encode('from host') };
  },
};
const HEALTHY = `export default { fetch: () => new Response('healthy') }`;

async function expectHealthy() {
  const outcome = await sandbox.run(HEALTHY, request, host);
  expect(outcome.ok && new TextDecoder().decode(outcome.response.body)).toBe('healthy');
}

const cases: [string, string, 'timeout' | 'memory' | 'error', RegExp][] = [
  ['an endless loop', `export default { fetch() { while (true) {} } }`, 'timeout', /CPU time/],
  [
    'an endless loop at module evaluation',
    `for (;;) {} export default { fetch: () => new Response('') }`,
    'timeout',
    /CPU time/,
  ],
  [
    'an endless loop catching its interruption',
    `export default { fetch() { for (;;) { try { while (true) {} } catch {} } } }`,
    'timeout',
    /CPU time/,
  ],
  [
    'unbounded array growth',
    `export default { fetch() { const a = []; for (;;) a.push(a.length) } }`,
    'memory',
    /memory/,
  ],
  [
    'unbounded growth that catches the out-of-memory error',
    `export default { fetch() { const a = []; for (;;) { try { a.push({ n: a.length }) } catch {} } } }`,
    'timeout',
    /CPU time/,
  ],
  ['a throw', `export default { fetch() { throw new Error('boom') } }`, 'error', /^Error: boom$/],
  ['process.exit()', `export default { fetch() { process.exit(1) } }`, 'error', /'process' is not defined/],
  ["require('fs')", `export default { fetch() { return require('fs') } }`, 'error', /'require' is not defined/],
  [
    "import('node:fs')",
    `export default { async fetch() { const fs = await import('node:fs'); return new Response(String(fs)) } }`,
    'error',
    /Cannot find module 'node:fs'/,
  ],
  [
    'a static import of node:child_process',
    `import { exec } from 'node:child_process'; export default { fetch() { exec('id') } }`,
    'error',
    /Cannot find module 'node:child_process'/,
  ],
  [
    "globalThis.constructor.constructor('return process')()",
    `export default { fetch() { const p = globalThis.constructor.constructor('return process')(); return new Response(String(p.pid)) } }`,
    'error',
    /'process' is not defined/,
  ],
  [
    'Deno',
    `export default { fetch() { return new Response(Deno.readTextFileSync('/etc/passwd')) } }`,
    'error',
    /'Deno' is not defined/,
  ],
  [
    'sockets',
    `export default { fetch() { return new Response(String(new WebSocket('ws://127.0.0.1:1'))) } }`,
    'error',
    /'WebSocket' is not defined/,
  ],
  [
    'the bridge, looked for after the prelude removed it',
    `export default { fetch() { return new Response(String(__folio.log)) } }`,
    'error',
    /'__folio' is not defined/,
  ],
  [
    'endless recursion',
    `export default { fetch() { const f = () => f() + 1; return f() } }`,
    'error',
    /stack overflow|call stack/i,
  ],
  [
    'a timer that outlives the wall time',
    `export default { fetch: () => new Promise((resolve) => setTimeout(() => resolve(new Response('late')), 60_000)) }`,
    'timeout',
    /took more than 2000 ms/,
  ],
];

describe('hostile scripts', () => {
  it.each(cases)('%s fails as it should, and the next run works', async (_name, script, failure, message) => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const outcome = await sandbox.run(script, request, host);
    clearInterval(ticker);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.failure).toBe(failure);
    expect(outcome.message).toMatch(message);
    expect(outcome.logs.at(-1)).toMatchObject({ level: 'error' });
    if (failure !== 'error') expect(ticks, 'the main thread kept running during the run').toBeGreaterThan(2);
    await expectHealthy();
  });

  it('a fetch the host never answers ends at the wall time, and the host sees the abort', async () => {
    let aborted = false;
    const stuck: SandboxHost = {
      fetch: (_r, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          }),
        ),
    };
    const outcome = await sandbox.run(
      `export default { fetch: () => fetch('https://example.test/slow') }`,
      request,
      stuck,
      { limits: { wallMs: 300 } },
    );
    expect(outcome.ok === false && outcome.failure).toBe('timeout');
    expect(aborted).toBe(true);
    await expectHealthy();
  });

  it('a run its caller cancels ends as a timeout', async () => {
    const controller = new AbortController();
    const run = sandbox.run(`export default { fetch() { while (true) {} } }`, request, host, {
      signal: controller.signal,
      limits: { cpuMs: 60_000, wallMs: 60_000 },
    });
    setTimeout(() => controller.abort(), 100);
    const outcome = await run;
    expect(outcome.ok === false && outcome.message).toBe('The run was cancelled');
    await expectHealthy();
  });

  it('a rejected host fetch is a TypeError in the script', async () => {
    const failing: SandboxHost = { fetch: () => Promise.reject(new Error('refused by policy')) };
    const outcome = await sandbox.run(
      `export default { async fetch() { try { await fetch('https://example.test/'); } catch (e) { return new Response(e.name + ': ' + e.message) } } }`,
      request,
      failing,
    );
    expect(outcome.ok && new TextDecoder().decode(outcome.response.body)).toBe('TypeError: refused by policy');
  });

  it('runs in parallel on two workers, each with its own globals', async () => {
    const script = `globalThis.count = (globalThis.count ?? 0) + 1; export default { fetch: async () => { await fetch('https://example.test/'); return new Response(String(globalThis.count)) } }`;
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => sandbox.run(script, request, host)));
    expect(outcomes.map((o) => o.ok && new TextDecoder().decode(o.response.body))).toEqual(['1', '1', '1', '1']);
  });
});
