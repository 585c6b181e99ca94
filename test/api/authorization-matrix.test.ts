import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raw } from '../helpers/api';
import { CALLER_SPECS } from '../helpers/authz-callers';
import { buildWorld, NO_RATE_LIMITS, type World } from '../helpers/authz-fixture';
import { routesOf, runCell, type CellResult, type Route } from '../helpers/authz-run';
import { ABOUT_THE_CALLER, casesOf, OPERATIONS, PUBLIC_OPERATIONS, SIGNED_OPERATIONS } from '../helpers/authz-table';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * The authorization matrix (issue 13): every operation of `/v1/openapi.json`
 * × every caller (no token, a bad token, another organization's admin, a
 * guest, a guest administering a collection through an invite link, and a
 * member of each role). The expected answer of each cell is computed from
 * policy (`decide` over the stored resources, said as REST says it), never
 * written by hand; the table (test/helpers/authz-table*.ts) only says what
 * each operation asks. Operations that destroy or move what they address get
 * fresh resources per cell.
 */

let t: TestServer;
let w: World;
let routes: Map<string, Route>;
/** Every cell's answer, for FOLIO_AUTHZ_MATRIX_OUT (a markdown table to read the whole matrix at once). */
const answers = new Map<string, Map<string, number>>();

beforeAll(async () => {
  t = await startTestServer(NO_RATE_LIMITS);
  routes = routesOf((await raw(t, 'GET', '/v1/openapi.json')).body as Parameters<typeof routesOf>[0]);
  w = await buildWorld(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
  const out = process.env.FOLIO_AUTHZ_MATRIX_OUT;
  if (out && answers.size > 0) writeFileSync(out, matrixMarkdown());
});

function matrixMarkdown(): string {
  const names = w.callers.map((c) => c.name);
  const lines = [`| operation | ${names.join(' | ')} |`, `|---|${names.map(() => '---').join('|')}|`];
  for (const [row, byCaller] of answers) lines.push(`| ${row} | ${names.map((n) => byCaller.get(n)).join(' | ')} |`);
  return `${lines.join('\n')}\n`;
}

const route = (operationId: string): Route => {
  const r = routes.get(operationId);
  if (!r) throw new Error(`${operationId} is not in /v1/openapi.json`);
  return r;
};

describe('the matrix', () => {
  it('classifies every operation of the published document exactly once', () => {
    const classes = [PUBLIC_OPERATIONS, SIGNED_OPERATIONS, ABOUT_THE_CALLER, new Set(Object.keys(OPERATIONS))];
    const unclassified = [...routes.keys()].filter((id) => !classes.some((c) => c.has(id)));
    expect(unclassified, 'operations the authorization matrix does not know: add them to the table').toEqual([]);
    const twice = [...routes.keys()].filter((id) => classes.filter((c) => c.has(id)).length > 1);
    expect(twice).toEqual([]);
    const stale = classes.flatMap((c) => [...c]).filter((id) => !routes.has(id));
    expect(stale, 'table rows for operations the document no longer has').toEqual([]);
  });

  it('has a column for every caller', () => {
    expect(w.callers.map((c) => c.name)).toEqual(CALLER_SPECS.map((s) => s.name));
  });
});

describe('public operations', () => {
  it('answer every caller, with or without a token', async () => {
    for (const caller of w.callers) {
      for (const path of ['/v1/', '/v1/openapi.json']) {
        const res = await raw(t, 'GET', path, { token: caller.token });
        expect(res.status, `${path} × ${caller.name}`).toBe(200);
      }
    }
    expect(route('getApiInformation').path).toBe('/v1/');
  });
});

describe('signed links', () => {
  /** The link with its signature replaced by a well-formed wrong one. */
  const tampered = (url: string) => url.replace(/signature=[^&]+/, 'signature=AAAAAAAAAAAAAAAAAAAAAA');

  it('serve whoever holds the signature, whatever their token, and nobody without it', async () => {
    const file = await raw(t, 'GET', `/v1/spaces/${w.spaceId}/content/files/${w.fileId}`, { token: t.adminToken });
    expect(file.status).toBe(200);
    for (const [operationId, url] of [
      ['downloadFile', (file.body as { downloadURL: string }).downloadURL],
      ['downloadRevisionPdf', w.pdfUrl],
    ] as const) {
      expect(new URL(url).pathname.startsWith('/v1/')).toBe(true);
      for (const caller of w.callers) {
        const headers: Record<string, string> = caller.token ? { authorization: `Bearer ${caller.token}` } : {};
        const good = await fetch(url, { headers });
        await good.arrayBuffer();
        expect(good.status, `${operationId} × ${caller.name}`).toBe(200);
        const bad = await fetch(tampered(url), { headers });
        const body = (await bad.json()) as { error?: { code?: number } };
        expect(bad.status, `${operationId} tampered × ${caller.name}`).toBe(403);
        expect(body.error?.code).toBe(403);
      }
    }
  });

  it('take uploads to a signed slot from anyone holding it, and none with a wrong signature', async () => {
    for (const caller of w.callers) {
      const slot = (
        await raw(t, 'POST', `/v1/orgs/${w.organizationId}/storage/upload`, {
          token: t.adminToken,
          body: { file: { name: 'a.txt', type: 'text/plain', size: 1 }, kind: 'organization_file' },
        })
      ).body as { url: string };
      const headers: Record<string, string> = caller.token ? { authorization: `Bearer ${caller.token}` } : {};
      const bad = await fetch(tampered(slot.url), { method: 'PUT', headers, body: 'a' });
      await bad.arrayBuffer();
      expect(bad.status, `uploadStorageFile tampered × ${caller.name}`).toBe(403);
      const good = await fetch(slot.url, { method: 'PUT', headers, body: 'a' });
      await good.arrayBuffer();
      expect(good.status, `uploadStorageFile × ${caller.name}`).toBe(200);
    }
  });
});

describe('operations about the caller', () => {
  const cases: Record<string, { body?: () => unknown; path?: (caller: { userId?: string | null }) => string }> = {
    createOrganization: { body: () => ({ title: 'Created by a matrix caller' }) },
    getOrganizationsForEmailDomain: { path: () => '/v1/email-domains/example.com/orgs' },
    joinOrganizationWithInvite: {
      path: () => `/v1/orgs/${w.lobbyOrganizationId}/invites/${w.lobbyInviteId}`,
    },
    // Every caller may look themself up (a signed-out caller gets the 401 before any lookup).
    getUserById: { path: (caller) => `/v1/users/${caller.userId ?? 'nobody'}` },
  };

  it.each([...ABOUT_THE_CALLER])('%s answers any valid token and no one else', async (operationId) => {
    const r = route(operationId);
    const c = cases[operationId] ?? {};
    for (const caller of w.callers) {
      const res = await raw(t, r.method, c.path?.(caller) ?? r.path, { token: caller.token, body: c.body?.() });
      expect(res.status, `${operationId} × ${caller.name}`).toBe(caller.userId ? r.success : 401);
    }
  });

  it('lists the matrix organization to its members only', async () => {
    for (const caller of w.callers.filter((c) => c.userId)) {
      const res = await raw(t, 'GET', '/v1/orgs?limit=1000', { token: caller.token });
      const listed = (res.body as { items: { id: string }[] }).items.some((o) => o.id === w.organizationId);
      expect(listed, caller.name).toBe(caller.name !== 'other org admin');
    }
  });
});

describe('every operation × every caller', () => {
  it.each(Object.keys(OPERATIONS))('%s answers each caller as policy says', async (operationId) => {
    const r = route(operationId);
    const results: CellResult[] = [];
    for (const c of casesOf(operationId)) {
      for (const caller of w.callers) {
        const result = await runCell(w, r, c, caller);
        // Another organization's admin must learn nothing: policy itself must say "not found" for them. An
        // instance-wide action (the instance admin's alone) is refused alike in every organization, existing or not.
        if (
          caller.name === 'other org admin' &&
          !result.expected.because.startsWith('instance ') &&
          result.expected.status !== (r.method === 'DELETE' ? r.success : 404)
        )
          result.problem ??= `policy lets another organization's admin tell this apart (${result.expected.because})`;
        results.push(result);
        const row = `${operationId}${c.label ? ` (${c.label})` : ''}`;
        if (!answers.has(row)) answers.set(row, new Map());
        answers.get(row)!.set(caller.name, result.got);
      }
    }
    expect(results.filter((x) => x.problem).map((x) => `${x.cell}: ${x.problem}`)).toEqual([]);
  });
});
