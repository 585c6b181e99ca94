import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { raw } from '../helpers/api';
import { assertMatchesGitBook } from '../helpers/gitbook-schema';
import { newMember } from '../helpers/members';

/**
 * The hot read paths answer from caches (a granted view of a space per
 * caller, list JSON per caller roles, space JSON per role, the token's
 * principal): callers with different roles never get each other's bytes, and
 * every write shows in the next read at once.
 */
let t: TestServer;
let orgId: string;

beforeAll(async () => {
  t = await startTestServer();
  const org = await raw(t, 'POST', '/v1/orgs', { token: t.adminToken, body: { title: 'Cached Org' } });
  orgId = (org.body as { id: string }).id;
});
afterAll(async () => {
  await t?.close();
});

interface Space {
  id: string;
  title: string;
  permissions: { view: boolean; edit: boolean; admin: boolean };
}

async function get<T>(path: string, token: string, status = 200): Promise<T> {
  const res = await raw(t, 'GET', path, { token });
  expect(res.status, `GET ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body as T;
}

const list = (token: string) => get<{ items: Space[]; count: number }>(`/v1/orgs/${orgId}/spaces`, token);

describe('cached read paths', () => {
  it('serve each caller their own permissions, in lists and single spaces, and follow writes at once', async () => {
    const made = await raw(t, 'POST', `/v1/orgs/${orgId}/spaces`, { token: t.adminToken, body: { title: 'First' } });
    const spaceId = (made.body as { id: string }).id;
    const reader = await newMember(t, orgId, 'read');
    const editor = await newMember(t, orgId, 'edit');

    // Twice each: the second answer comes from the caches and must be the same.
    for (let i = 0; i < 2; i++) {
      const asAdmin = await list(t.adminToken);
      const asReader = await list(reader.token);
      const asEditor = await list(editor.token);
      assertMatchesGitBook('listSpacesInOrganizationById', 200, asReader);
      expect(asAdmin.items.map((s) => s.permissions.admin)).toEqual([true]);
      expect(asReader.items.map((s) => [s.permissions.view, s.permissions.edit])).toEqual([[true, false]]);
      expect(asEditor.items.map((s) => s.permissions.edit)).toEqual([true]);
      const single = await get<Space>(`/v1/spaces/${spaceId}`, reader.token);
      assertMatchesGitBook('getSpaceById', 200, single);
      expect(single.permissions.edit).toBe(false);
    }

    // A grant lifts the reader on this space: the next list and GET show it.
    const grant = await raw(t, 'POST', `/v1/spaces/${spaceId}/permissions`, {
      token: t.adminToken,
      body: { role: 'edit', users: [reader.id] },
    });
    expect(grant.status, JSON.stringify(grant.body)).toBeLessThan(300);
    expect((await list(reader.token)).items[0]!.permissions.edit).toBe(true);
    expect((await get<Space>(`/v1/spaces/${spaceId}`, reader.token)).permissions.edit).toBe(true);

    // A rename shows in every caller's cached list.
    await raw(t, 'PATCH', `/v1/spaces/${spaceId}`, { token: t.adminToken, body: { title: 'Renamed' } });
    expect((await list(editor.token)).items[0]!.title).toBe('Renamed');
    expect((await get<Space>(`/v1/spaces/${spaceId}`, editor.token)).title).toBe('Renamed');

    // A space hidden from members (null default level) disappears for the editor at once, but not for the
    // reader, who holds a grant.
    await raw(t, 'PATCH', `/v1/spaces/${spaceId}`, { token: t.adminToken, body: { defaultLevel: null } });
    await get(`/v1/spaces/${spaceId}`, editor.token, 404);
    expect((await list(editor.token)).items).toEqual([]);
    expect((await list(reader.token)).items.map((s) => s.id)).toEqual([spaceId]);
  });

  it('page a cached list with the same bytes as before and a cursor that still works', async () => {
    for (let i = 0; i < 3; i++)
      await raw(t, 'POST', `/v1/orgs/${orgId}/spaces`, { token: t.adminToken, body: { title: `More ${i}` } });
    const first = await get<{ items: Space[]; count: number; next?: { page: string } }>(
      `/v1/orgs/${orgId}/spaces?limit=2`,
      t.adminToken,
    );
    const again = await get<typeof first>(`/v1/orgs/${orgId}/spaces?limit=2`, t.adminToken);
    expect(again).toEqual(first);
    expect(first.items).toHaveLength(2);
    const rest = await get<typeof first>(
      `/v1/orgs/${orgId}/spaces?limit=2&page=${encodeURIComponent(first.next!.page)}`,
      t.adminToken,
    );
    expect([...first.items, ...rest.items].map((s) => s.id)).toHaveLength(first.count);
    expect(new Set([...first.items, ...rest.items].map((s) => s.id)).size).toBe(first.count);
  });
});
