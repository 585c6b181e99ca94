import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { atLeast, maxRole, minRole } from '../../sync-server/policy/roles';
import { inheritedDefault, type ContentNode } from '../../sync-server/policy/access-index';
import { spacePermissions, type SpaceResource } from '../../sync-server/policy/content';
import { decideChangeRequest, type ChangeRequestStatus } from '../../sync-server/policy/change-request';
import { decidePost, type DiscussionResource } from '../../sync-server/policy/discussion';
import { loadActor } from '../../sync-server/access/actor';
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
    expect(spacePermissions({ role: 'admin' }, spaceIn({ locked: true }))).toMatchObject({
      edit: false,
      merge: false,
      admin: true,
      comment: true,
    });
    expect(spacePermissions({ role: 'edit' }, spaceIn())).toMatchObject({ edit: true, merge: false, review: false });
    expect(spacePermissions({ role: null }, spaceIn())).toMatchObject({ view: false, access: false });
  });

  it('refuses changes to a trashed space, but still lets its admins administer it', () => {
    expect(spacePermissions({ role: 'admin' }, spaceIn({ deleted: true }))).toMatchObject({
      edit: false,
      comment: false,
      merge: false,
      admin: true,
      view: true,
    });
  });
});

function spaceIn(state: { deleted?: boolean; locked?: boolean } = {}): SpaceResource {
  return {
    type: 'space',
    node: { type: 'space', id: 's', organizationId: 'org', parentId: null, defaultLevel: 'inherit' },
    deleted: state.deleted ?? false,
    locked: state.locked ?? false,
  };
}

describe('change requests', () => {
  const cr = (status: ChangeRequestStatus, space = spaceIn()) => ({ type: 'change-request' as const, space, status });

  it('takes edits to the fork while draft or open, even in a locked space (forks are how locked spaces change)', () => {
    for (const status of ['draft', 'open'] as const)
      expect(decideChangeRequest({ role: 'edit' }, 'edit-content', cr(status, spaceIn({ locked: true }))).allowed).toBe(
        true,
      );
    for (const status of ['merged', 'archived'] as const)
      expect(decideChangeRequest({ role: 'admin' }, 'edit-content', cr(status))).toMatchObject({ reason: 'closed' });
  });

  it('merges with review in an unlocked, live space only, each refusal with its reason', () => {
    expect(decideChangeRequest({ role: 'review' }, 'merge', cr('open')).allowed).toBe(true);
    expect(decideChangeRequest({ role: 'edit' }, 'merge', cr('open'))).toMatchObject({ reason: 'forbidden' });
    expect(decideChangeRequest({ role: 'admin' }, 'merge', cr('open', spaceIn({ locked: true })))).toMatchObject({
      reason: 'locked',
    });
    expect(decideChangeRequest({ role: 'admin' }, 'merge', cr('open', spaceIn({ deleted: true })))).toMatchObject({
      reason: 'deleted',
    });
    expect(decideChangeRequest({ role: 'admin' }, 'merge', cr('merged'))).toMatchObject({ reason: 'closed' });
    expect(decideChangeRequest({ role: null }, 'merge', cr('open'))).toMatchObject({ reason: 'not-found' });
  });
});

describe('comments', () => {
  const discussion: DiscussionResource = { type: 'discussion', owner: spaceIn() };
  const post = { type: 'post' as const, discussion, authorId: 'author' };

  it('lets authors edit their own posts, admins delete any, and nobody without comment do either', () => {
    expect(decidePost({ userId: 'author', role: 'comment' }, 'edit', post).allowed).toBe(true);
    expect(decidePost({ userId: 'other', role: 'admin' }, 'edit', post).allowed).toBe(false);
    expect(decidePost({ userId: 'other', role: 'admin' }, 'delete', post).allowed).toBe(true);
    expect(decidePost({ userId: 'author', role: 'read' }, 'delete', post).allowed).toBe(false);
    expect(decidePost({ role: 'comment' }, 'edit', post).allowed).toBe(false);
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
  const roleOf = async (userId: string, n: ContentNode) => (await loadActor(db, 'org', userId)).access.roleOf(n);

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
