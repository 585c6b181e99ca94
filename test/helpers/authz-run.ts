import { raw, type RawResponse } from './api';
import type { Caller } from './authz-callers';
import { fixtureParams, type OperationCase } from './authz-cases';
import { decisionOf, expectedOutcome, type Expectation } from './authz-expect';
import type { World } from './authz-fixture';
import type { Params } from './authz-fresh';

/**
 * Running one cell of the authorization matrix: an operation (method and
 * path from `/v1/openapi.json`) called by one caller, its expected status
 * computed from policy just before the call, the answer compared.
 */

/** An operation as the published document describes it. */
export interface Route {
  operationId: string;
  method: string;
  path: string;
  /** Its one 2xx status. */
  success: number;
}

type Doc = { paths: Record<string, Record<string, { operationId: string; responses?: Record<string, unknown> }>> };

/** Every operation of the document, by operationId. */
export function routesOf(doc: Doc): Map<string, Route> {
  const routes = new Map<string, Route>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const success = Object.keys(op.responses ?? {}).find((code) => /^2\d\d$/.test(code));
      routes.set(op.operationId, {
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        success: Number(success ?? 200),
      });
    }
  }
  return routes;
}

/** The document's path with its parameters filled from `params` (a missing one is a table mistake). */
export function fillPath(route: Route, params: Params): string {
  return route.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`matrix: no value for {${name}} of ${route.operationId}`);
    return encodeURIComponent(value);
  });
}

/** What one cell found; `problem` is set when the answer is not the expected one. */
export interface CellResult {
  cell: string;
  expected: Expectation;
  got: number;
  problem?: string;
}

const NOBODY: Expectation = { status: 401, because: 'no valid token' };

/** Calls `route` as `caller` the way `c` says, and compares with what policy expects. */
export async function runCell(w: World, route: Route, c: OperationCase, caller: Caller): Promise<CellResult> {
  const params = { ...fixtureParams(w), ...(await c.params?.(w)) };
  const query = c.query ? `?${new URLSearchParams(c.query).toString()}` : '';
  let expected = caller.userId
    ? await expectedOutcome(w.t.server.ctx.db, caller.userId, c.checks(w, params), route.method, route.success)
    : NOBODY;
  if (c.deleted !== undefined && expected.because === 'allowed') expected = { ...expected, status: c.deleted };
  const res = await raw(w.t, route.method, fillPath(route, params) + query, {
    token: caller.token,
    body: c.body?.(w, params),
  });
  const cell = `${route.operationId}${c.label ? ` (${c.label})` : ''} × ${caller.name}`;
  const result: CellResult = { cell, expected, got: res.status };
  if (res.status !== expected.status)
    result.problem = `expected ${expected.status} (${expected.because}), got ${res.status}: ${messageOf(res)}`;
  else if (res.status >= 400 && (res.body as { error?: { code?: unknown } })?.error?.code !== res.status)
    result.problem = `a ${res.status} not in the error shape: ${JSON.stringify(res.body)}`;
  else if (res.status < 300 && c.shows && caller.userId) result.problem = await listProblem(w, c, caller.userId, res);
  return result;
}

/** Whether a list shows exactly the fixture items policy lets the caller see (undefined when it does). */
async function listProblem(w: World, c: OperationCase, userId: string, res: RawResponse): Promise<string | undefined> {
  const listed = new Set(((res.body as { items?: { id: string }[] }).items ?? []).map((i) => i.id));
  for (const item of c.shows!(w)) {
    const visible = (await decisionOf(w.t.server.ctx.db, userId, item.check)).allowed;
    if (visible !== listed.has(item.id))
      return `${item.check.on} ${item.id} ${visible ? 'missing from' : 'revealed by'} the list`;
  }
  return undefined;
}

function messageOf(res: RawResponse): string {
  const error = (res.body as { error?: { message?: unknown } })?.error;
  return typeof error?.message === 'string' ? error.message : JSON.stringify(res.body)?.slice(0, 200);
}
