import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBody, readApiError } from '../../shared/api-error';
import { ROLES, ROLES_LOW_TO_HIGH, atLeast, roleLabel } from '../../shared/roles';
import { DefaultLevel, RoleOrGuest, RoleSchema } from '../../sync-server/http/schemas';
import { errorBody } from '../../sync-server/http/errors';
import { ROLES as POLICY_ROLES, rank } from '../../sync-server/policy/roles';
import { ApiClient, ApiError } from '../../renderer/src/api/client';
import { ROLES as APP_ROLES, roleLabel as appRoleLabel } from '../../renderer/src/org/org-api';
import { startTestServer, type TestServer } from '../helpers/server';

/** The role list and the API error shape are defined once in shared/, for the server and the app (issue 28). */

describe('roles', () => {
  it("are GitBook's MemberRole, highest first", () => {
    expect(ROLES).toEqual(['admin', 'create', 'review', 'edit', 'comment', 'read']);
    expect(ROLES_LOW_TO_HIGH).toEqual([...ROLES].reverse());
  });

  it("the server's TypeBox role schemas enumerate exactly the shared roles", () => {
    // Type.Unsafe keeps the JSON Schema it is given; its TypeScript type does not list `enum`.
    const enumOf = (schema: object) => (schema as { enum?: unknown }).enum;
    expect(enumOf(RoleSchema)).toEqual([...ROLES]);
    expect(enumOf(RoleOrGuest)).toEqual([...ROLES, null]);
    expect(enumOf(DefaultLevel)).toEqual([...ROLES, 'inherit', null]);
  });

  it("the policy's ranking and the app's list are the shared ones", () => {
    expect(POLICY_ROLES).toEqual(ROLES_LOW_TO_HIGH);
    POLICY_ROLES.forEach((role, i) => expect(rank(role)).toBe(i + 1));
    expect(rank(null)).toBe(0);
    expect(atLeast('review', 'edit')).toBe(true);
    expect(atLeast('edit', 'review')).toBe(false);
    expect(APP_ROLES).toBe(ROLES);
    expect(appRoleLabel).toBe(roleLabel);
  });

  it('have labels for people', () => {
    expect(ROLES.map(roleLabel)).toEqual(['Admin', 'Create', 'Review', 'Edit', 'Comment', 'Read']);
    expect(roleLabel(null)).toBe('Guest');
    expect(roleLabel('inherit')).toBe('Inherit');
  });
});

describe('the API error shape', () => {
  it('is built the same by the server', () => {
    expect(apiErrorBody(404, 'Space not found')).toEqual({ error: { code: 404, message: 'Space not found' } });
    expect(errorBody(403, 'No')).toEqual(apiErrorBody(403, 'No'));
  });

  it('readApiError accepts the shape (extra fields aside)', () => {
    expect(readApiError({ error: { code: 404, message: 'Space not found' } })).toEqual({
      code: 404,
      message: 'Space not found',
    });
    expect(readApiError({ error: { code: 400, message: '', hint: 'x' }, more: 1 })).toEqual({ code: 400, message: '' });
    expect(readApiError(JSON.parse(JSON.stringify(apiErrorBody(429, 'Slow down'))))).toEqual({
      code: 429,
      message: 'Slow down',
    });
  });

  it('readApiError rejects malformed bodies', () => {
    const malformed: unknown[] = [
      undefined,
      null,
      'Not found',
      404,
      [],
      [{ error: { code: 404, message: 'x' } }],
      {},
      { error: null },
      { error: 'Not found' },
      { error: [] },
      { error: { message: 'x' } },
      { error: { code: 404 } },
      { error: { code: '404', message: 'x' } },
      { error: { code: 404.5, message: 'x' } },
      { error: { code: Number.NaN, message: 'x' } },
      { error: { code: 404, message: 42 } },
      { error: { code: 404, message: null } },
      { message: 'x', code: 404 },
    ];
    for (const body of malformed) expect(readApiError(body), JSON.stringify(body)).toBeUndefined();
  });
});

describe('error answers of the real server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it('parse with readApiError, with the status as code', async () => {
    const answers = [
      await fetch(`${t.url}/v1/orgs/unknown`, { headers: { authorization: `Bearer ${t.adminToken}` } }),
      await fetch(`${t.url}/v1/orgs/unknown`),
      await fetch(`${t.url}/v1/no-such-route`, { headers: { authorization: `Bearer ${t.adminToken}` } }),
    ];
    for (const res of answers) {
      expect(res.ok).toBe(false);
      const error = readApiError(await res.json());
      expect(error).toBeDefined();
      expect(error!.code).toBe(res.status);
      expect(error!.message).not.toBe('');
    }
    expect(answers.map((res) => res.status)).toEqual([404, 401, 404]);
  });

  it("reach the app's ApiClient as the server's message", async () => {
    const client = new ApiClient(t.url, t.adminToken);
    const err = await client.request('/orgs/unknown').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const direct = readApiError(
      await (await fetch(`${t.url}/v1/orgs/unknown`, { headers: { authorization: `Bearer ${t.adminToken}` } })).json(),
    );
    expect((err as ApiError).status).toBe(404);
    expect((err as ApiError).message).toBe(direct?.message);
  });
});
