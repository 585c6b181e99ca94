import http from 'node:http';
import fc from 'fast-check';
import type { RunningServer } from '../../sync-server/server';
import { buildFuzzFixture, type FuzzFixture } from './openapi-fuzz-fixture';
import { operationsOf, type FuzzRequest, type Operation } from './openapi-fuzz-operations';
import { requestArbitrary } from './openapi-fuzz-requests';
import { StateProbe } from './openapi-fuzz-state';

/**
 * Runs generated requests against a real server, one at a time, and checks
 * each answer: no 5xx, an answer within the time limit (a hang is a
 * failure), every 4xx in GitBook's error shape without internals, and no
 * state change (StateProbe) from a rejected write. Collects every failure
 * with a reproducer instead of stopping at the first.
 */

export interface FuzzOptions {
  seed: number;
  /** Requests per operation. */
  runs: number;
  /** Longest wait for one answer (a limit for hangs, not a performance figure). */
  timeoutMs: number;
  /** Only operations whose id matches (for reproducing one failure). */
  only?: RegExp;
  /** Called after each request (progress output of the bench). */
  onResult?(result: FuzzResult): void;
}

export interface FuzzResult {
  request: FuzzRequest;
  /** Undefined when no answer came (timeout, connection error). */
  status?: number;
  /** The start of the answer's body. */
  answer?: string;
  /** Time to the complete answer (or to giving up). */
  ms: number;
  problems: string[];
}

export interface FuzzReport {
  requests: number;
  operations: number;
  /** Answers per status class ("2xx", "4xx", ...; "none" for no answer). */
  byClass: Record<string, number>;
  /** The same per operation id. */
  byOperation: Record<string, Record<string, number>>;
  failures: FuzzResult[];
}

/**
 * When an operation runs, so that its valid requests find the fixture in the
 * state they need and do not spoil it for the others: 0 most; 1 merges the
 * change request; 2 may archive it, lock or hand away the space, unpublish
 * the site; 3 deletes (deepest resources first); 4 restores the space the
 * deletes removed.
 */
export function tierOf(op: Operation): number {
  if (op.operationId === 'restoreSpace') return 4;
  if (op.method === 'DELETE') return 3;
  const late = ['updateChangeRequestById', 'updateSpaceById', 'transferSpace', 'transferCollection', 'unpublishSite'];
  if (late.includes(op.operationId)) return 2;
  if (op.operationId === 'mergeChangeRequest') return 1;
  return 0;
}

/** The order of the run: by tier, deeper paths first among deletes, otherwise document order. */
export function runOrder(ops: Operation[]): Operation[] {
  const depth = (op: Operation) => (tierOf(op) === 3 ? -op.pathParams.length : 0);
  return [...ops].sort((a, b) => tierOf(a) - tierOf(b) || depth(a) - depth(b));
}

/** A stable per-operation seed, so adding an operation does not change the others' requests. */
function seedFor(seed: number, operationId: string): number {
  let h = seed | 0;
  for (const c of operationId) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}

/** An HTTP answer as received. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Sends the request exactly as generated (raw path, raw body); rejects on timeout or a connection error. */
function send(agent: http.Agent, base: URL, token: string, r: FuzzRequest, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = r.body !== undefined ? Buffer.from(r.body, 'utf8') : undefined;
    const req = http.request({
      agent,
      host: base.hostname,
      port: base.port,
      method: r.method,
      path: r.path,
      headers: {
        ...r.headers,
        authorization: `Bearer ${token}`,
        ...(body ? { 'content-length': String(body.length) } : {}),
      },
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(Object.assign(err, { reusedSocket: req.reusedSocket }));
    });
    // The server may answer (413) and close before reading a huge body: the answer still counts.
    req.end(body);
  });
}

/** Problems with an answer's status and error body. */
export function answerProblems(a: Answer): string[] {
  if (a.status >= 500) return [`answered ${a.status}: ${a.body.slice(0, 300)}`];
  if (a.status < 400) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(a.body);
  } catch {
    return [`${a.status} body is not JSON: ${JSON.stringify(a.body.slice(0, 200))}`];
  }
  const body = parsed as { error?: { code?: unknown; message?: unknown } };
  const shapeOk =
    body !== null &&
    typeof body === 'object' &&
    Object.keys(body).join() === 'error' &&
    body.error?.code === a.status &&
    typeof body.error?.message === 'string' &&
    body.error.message.length > 0;
  if (!shapeOk)
    return [`${a.status} body is not {"error": {"code": ${a.status}, "message": "…"}}: ${a.body.slice(0, 200)}`];
  // No internals in messages: stack frames, SQL, file paths.
  if (/\bat .+\.ts:\d+|SELECT |INSERT |\/work\//.test(String(body.error!.message)))
    return [`${a.status} message leaks internals: ${String(body.error!.message).slice(0, 200)}`];
  return [];
}

/** `s` quoted for a POSIX shell; ANSI-C quoting ($'…') when it holds anything but printable ASCII. */
function shellQuote(s: string): string {
  if (/^[\x20-\x7e]*$/.test(s)) return `'${s.replace(/'/g, `'\\''`)}'`;
  let out = "$'";
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (code >= 0x20 && code <= 0x7e) out += ch;
    else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}'`;
}

/** A copy-pasteable reproducer (curl; $URL is the server): method, path, headers and body (long ones summarized). */
export function reproducer(r: FuzzRequest): string {
  const body =
    r.body === undefined
      ? ''
      : r.body.length <= 600
        ? ` --data-raw ${shellQuote(r.body)}`
        : ` --data-raw <${r.body.length} bytes: ${JSON.stringify(r.body.slice(0, 120))}…${JSON.stringify(r.body.slice(-40))}>`;
  const path = r.path.length <= 600 ? r.path : `${r.path.slice(0, 300)}…(${r.path.length} chars)`;
  const headers = Object.entries(r.headers)
    .map(([k, v]) => ` -H ${shellQuote(`${k}: ${v}`)}`)
    .join('');
  return `[${r.operationId} / ${r.mutation}] curl --path-as-is -X ${r.method} "$URL"${shellQuote(path)}${headers}${body}`;
}

/** Reads the OpenAPI document of a running server and fuzzes every operation against a fresh fixture. */
export async function fuzzServer(server: RunningServer, token: string, options: FuzzOptions): Promise<FuzzReport> {
  const docRes = await fetch(`${server.url}/v1/openapi.json`);
  const ops = operationsOf(await docRes.json()).filter((op) => !options.only || options.only.test(op.operationId));
  const fixture = await buildFuzzFixture(server, token);
  const probe = await StateProbe.create(server.ctx.db, server.ctx.hub);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    return await runAll(
      { agent, base: new URL(server.url), token, timeoutMs: options.timeoutMs },
      ops,
      fixture,
      probe,
      options,
    );
  } finally {
    agent.destroy();
    probe.close();
  }
}

interface Target {
  agent: http.Agent;
  base: URL;
  token: string;
  timeoutMs: number;
}

/**
 * Sends once, and again when a kept-alive socket turned out closed by the
 * server before this request reached it (Node's documented race, not the
 * server failing this request).
 */
async function sendRetrying(to: Target, r: FuzzRequest): Promise<Answer> {
  try {
    return await send(to.agent, to.base, to.token, r, to.timeoutMs);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { reusedSocket?: boolean };
    if (e.reusedSocket && e.code === 'ECONNRESET') return send(to.agent, to.base, to.token, r, to.timeoutMs);
    throw err;
  }
}

/** Sends one request and checks its answer (and, for a refused write, that nothing changed). */
async function check(to: Target, probe: StateProbe, request: FuzzRequest): Promise<FuzzResult> {
  const before = request.method !== 'GET' ? await probe.snapshot() : undefined;
  const result: FuzzResult = { request, problems: [], ms: 0 };
  const started = performance.now();
  try {
    const answer = await sendRetrying(to, request);
    result.ms = performance.now() - started;
    result.status = answer.status;
    result.answer = answer.body.slice(0, 300);
    result.problems.push(...answerProblems(answer));
    // The server runs in this process: while it blocks its event loop, the timeout timer cannot fire either.
    if (result.ms > to.timeoutMs)
      result.problems.push(`answered after ${Math.round(result.ms)} ms (limit ${to.timeoutMs} ms)`);
    if (before && answer.status >= 400 && answer.status < 500) {
      const changed = probe.changes(before, await probe.snapshot());
      if (changed.length > 0) result.problems.push(`rejected with ${answer.status} but changed ${changed.join(', ')}`);
    }
  } catch (err) {
    result.ms = performance.now() - started;
    result.problems.push(`no answer: ${(err as Error).message}`);
  }
  return result;
}

async function runAll(
  to: Target,
  ops: Operation[],
  fixture: FuzzFixture,
  probe: StateProbe,
  options: FuzzOptions,
): Promise<FuzzReport> {
  const report: FuzzReport = { requests: 0, operations: ops.length, byClass: {}, byOperation: {}, failures: [] };
  for (const op of runOrder(ops)) {
    const requests = fc.sample(requestArbitrary(op, fixture), {
      seed: seedFor(options.seed, op.operationId),
      numRuns: options.runs,
    });
    const counts: Record<string, number> = (report.byOperation[op.operationId] = {});
    for (const request of requests) {
      const result = await check(to, probe, request);
      report.requests++;
      const cls = result.status === undefined ? 'none' : `${Math.floor(result.status / 100)}xx`;
      report.byClass[cls] = (report.byClass[cls] ?? 0) + 1;
      counts[cls] = (counts[cls] ?? 0) + 1;
      if (result.problems.length > 0) report.failures.push(result);
      options.onResult?.(result);
    }
  }
  return report;
}

/** The report as text: counts per status class, then every failure with its reproducer. */
export function formatReport(report: FuzzReport, seed: number): string {
  const lines = [
    `${report.requests} requests over ${report.operations} operations (seed ${seed}): ` +
      Object.entries(report.byClass)
        .sort()
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    `${report.failures.length} failures`,
  ];
  for (const f of report.failures) lines.push(`- ${f.problems.join('; ')}\n  ${reproducer(f.request)}`);
  return lines.join('\n');
}
