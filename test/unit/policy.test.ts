import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atLeast, maxRole, minRole } from '../../sync-server/policy/roles';
import { AccessIndex, inheritedDefault, loadMembership, type ContentNode } from '../../sync-server/policy/access';
import { spacePermissions } from '../../sync-server/policy/permissions';
import { openPglite } from '../../sync-server/store/pglite';
import { migrate } from '../../sync-server/store/migrate';
import type { Db } from '../../sync-server/store/db';

describe('role lattice', () => {
  it('orders admin > create > review > edit > comment > read > none', () => {
    const order = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
    order.forEach((role, i) => {
      order.forEach((other, j) => expect(atLeast(role, other)).toBe(i >= j));
      expect(atLeast(null, role)).toBe(false);
    });
    expect(maxRole('edit', 'review')).toBe('review');
    expect(minRole('edit', 'review')).toBe('edit');
    expect(maxRole(null, 'read')).toBe('read');
    expect(minRole(null, 'admin')).toBe(null);
  });

  it('locks edits and merges of a locked space whatever the role', () => {
    expect(spacePermissions('admin', true)).toMatchObject({ edit: false, merge: false, admin: true, comment: true });
    expect(spacePermissions('edit', false)).toMatchObject({ edit: true, merge: false, review: false });
    expect(spacePermissions(null, false)).toMatchObject({ view: false, access: false });
  });
});

const node = (
  id: string,
  parentId: string | null,
  defaultLevel: string | null,
  type: ContentNode['type'] = 'collection',
): ContentNode => ({
  type,
  id,
  organizationId: 'org',
  parentId,
  defaultLevel,
});

describe('inherited default level', () => {
  it('takes the nearest explicit level, capped by the org role; inherit to the top is the org role', () => {
    expect(inheritedDefault([node('s', 'c', 'inherit', 'space'), node('c', null, 'inherit')], 'edit')).toBe('edit');
    expect(inheritedDefault([node('s', 'c', 'inherit', 'space'), node('c', null, 'read')], 'edit')).toBe('read');
    expect(inheritedDefault([node('s', 'c', 'admin', 'space'), node('c', null, 'read')], 'comment')).toBe('comment');
    expect(inheritedDefault([node('s', 'c', null, 'space'), node('c', null, 'admin')], 'admin')).toBe(null);
  });
});

describe('AccessIndex on a real database', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPglite(undefined);
    await migrate(db);
    await db.exec(`
      INSERT INTO users (id, display_name) VALUES ('u_member', 'M'), ('u_guest', 'G'), ('u_admin', 'A'), ('u_out', 'O');
      INSERT INTO organizations (id, title) VALUES ('org', 'Org'), ('org2', 'Other');
      INSERT INTO members (organization_id, user_id, role) VALUES ('org', 'u_member', 'comment'), ('org', 'u_guest', NULL), ('org', 'u_admin', 'admin'), ('org2', 'u_out', 'admin');
      INSERT INTO teams (id, organization_id, title) VALUES ('team', 'org', 'Writers');
      INSERT INTO team_members (team_id, user_id) VALUES ('team', 'u_guest');
      INSERT INTO collections (id, organization_id, parent_id, default_level, position) VALUES ('top', 'org', NULL, 'inherit', 'a0'), ('mid', 'org', 'top', NULL, 'a0');
      INSERT INTO content_permissions VALUES ('collection', 'top', 'team', 'team', 'edit'), ('collection', 'mid', 'user', 'u_member', 'review');
    `);
  });
  afterAll(async () => {
    await db.close();
  });
  const space = (parentId: string | null, defaultLevel: string | null = 'inherit') =>
    node('s', parentId, defaultLevel, 'space');
  const roleOf = async (userId: string, n: ContentNode) =>
    (await AccessIndex.load(db, await loadMembership(db, 'org', userId))).roleOf(n);

  it('gives org admins admin everywhere and outsiders nothing', async () => {
    expect(await roleOf('u_admin', space('mid', null))).toBe('admin');
    expect(await roleOf('u_out', space(null))).toBe(null);
  });

  it('gives guests only grants, including team grants inherited from ancestor collections', async () => {
    expect(await roleOf('u_guest', space(null))).toBe(null);
    expect(await roleOf('u_guest', space('mid', null))).toBe('edit');
  });

  it('lets a direct grant lift a member above the default level and their org role', async () => {
    expect(await roleOf('u_member', space(null))).toBe('comment');
    expect(await roleOf('u_member', space('top'))).toBe('comment');
    // "mid" has default null (hidden) but grants u_member review.
    expect(await roleOf('u_member', space('mid'))).toBe('review');
  });
});
