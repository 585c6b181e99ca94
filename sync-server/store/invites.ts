import { queryOne, type Queryable } from './db';
import { selectCountedPage, type CountedPage } from './organizations';

/** A `link_invites` row. `role` is the org role, or the level on the space/collection. */
export interface LinkRow {
  id: string;
  organization_id: string;
  role: string | null;
  resource_type: 'space' | 'collection' | null;
  resource_id: string | null;
}

const LINK_COLUMNS = 'id, organization_id, role, resource_type, resource_id';

/** A link invite of this organization, or undefined (also for another organization's id). */
export function findLinkRow(db: Queryable, organizationId: string, inviteId: string): Promise<LinkRow | undefined> {
  return queryOne<LinkRow>(db, `SELECT ${LINK_COLUMNS} FROM link_invites WHERE id = $1 AND organization_id = $2`, [
    inviteId,
    organizationId,
  ]);
}

/** One page of the organization's links to the organization itself (not to content), oldest first. */
export function listOrganizationLinkRows(
  db: Queryable,
  organizationId: string,
  page: { limit: number; offset: number },
): Promise<CountedPage<LinkRow>> {
  return selectCountedPage<LinkRow>(
    db,
    {
      columns: LINK_COLUMNS,
      from: 'FROM link_invites WHERE organization_id = $1 AND resource_type IS NULL',
      order: 'created_at, id',
      params: [organizationId],
    },
    page,
  );
}

/** Inserts a link invite. */
export async function insertLinkRow(
  db: Queryable,
  link: LinkRow & { createdBy: string; createdAt: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO link_invites (id, organization_id, role, resource_type, resource_id, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [link.id, link.organization_id, link.role, link.resource_type, link.resource_id, link.createdBy, link.createdAt],
  );
}

/** Sets the role (or level) a link gives. */
export async function setLinkRole(db: Queryable, inviteId: string, role: string | null): Promise<void> {
  await db.query('UPDATE link_invites SET role = $2 WHERE id = $1', [inviteId, role]);
}

/** Deletes a link invite. */
export async function deleteLinkRow(db: Queryable, inviteId: string): Promise<void> {
  await db.query('DELETE FROM link_invites WHERE id = $1', [inviteId]);
}

/** Whether a link's target still exists: a live space (not in the bin) or a collection of this organization. */
export async function linkTargetExists(
  db: Queryable,
  organizationId: string,
  type: 'space' | 'collection',
  id: string,
): Promise<boolean> {
  const sql =
    type === 'space'
      ? 'SELECT 1 FROM spaces WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL'
      : 'SELECT 1 FROM collections WHERE id = $1 AND organization_id = $2';
  return (await queryOne(db, sql, [id, organizationId])) !== undefined;
}

/**
 * Grants a user `role` on a space or collection, keeping an existing higher
 * grant: a link must never reduce access. `rolesLowToHigh` is the role order
 * (the lattice is policy's; the store only compares positions in it).
 */
export async function grantAtLeast(
  db: Queryable,
  grant: { resourceType: 'space' | 'collection'; resourceId: string; userId: string; role: string },
  rolesLowToHigh: readonly string[],
): Promise<void> {
  await db.query(
    `INSERT INTO content_permissions (resource_type, resource_id, principal_type, principal_id, role) VALUES ($1, $2, 'user', $3, $4)
     ON CONFLICT (resource_type, resource_id, principal_type, principal_id) DO UPDATE SET role = EXCLUDED.role
     WHERE coalesce(array_position($5::text[], EXCLUDED.role), 0) > coalesce(array_position($5::text[], content_permissions.role), 0)`,
    [grant.resourceType, grant.resourceId, grant.userId, grant.role, [...rolesLowToHigh]],
  );
}

/** An `email_invites` row. */
export interface EmailInviteRow {
  id: string;
  email: string;
  role: string | null;
  sso: boolean;
  accepted_at: Date | null;
}

/** An email invite of this organization by id, or undefined. */
export function findEmailInviteRow(
  db: Queryable,
  organizationId: string,
  inviteId: string,
): Promise<EmailInviteRow | undefined> {
  return queryOne<EmailInviteRow>(
    db,
    'SELECT id, email, role, sso, accepted_at FROM email_invites WHERE id = $1 AND organization_id = $2',
    [inviteId, organizationId],
  );
}

/** Marks one email invite accepted. */
export async function markEmailInviteAccepted(db: Queryable, inviteId: string, at: Date): Promise<void> {
  await db.query('UPDATE email_invites SET accepted_at = $2 WHERE id = $1', [inviteId, at]);
}

/**
 * Records a pending invite for an address and returns its id. Re-inviting an
 * address replaces its invite with a new id, which voids the link sent before.
 */
export async function upsertEmailInvite(
  db: Queryable,
  invite: {
    id: string;
    organizationId: string;
    email: string;
    role: string | null;
    sso: boolean;
    invitedBy: string;
    createdAt: Date;
  },
): Promise<string> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO email_invites (id, organization_id, email, role, sso, invited_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (organization_id, email) DO UPDATE
       SET id = EXCLUDED.id, role = EXCLUDED.role, sso = EXCLUDED.sso, invited_by = EXCLUDED.invited_by,
           created_at = EXCLUDED.created_at, accepted_at = NULL
     RETURNING id`,
    [invite.id, invite.organizationId, invite.email, invite.role, invite.sso, invite.invitedBy, invite.createdAt],
  );
  return rows[0]!.id;
}

/** Ids of the users with these (lower-case) addresses, by address; invites to them become memberships at once. */
export async function userIdsByEmail(db: Queryable, emails: string[]): Promise<Map<string, string>> {
  const users = await db.query<{ id: string; email: string }>(
    'SELECT id, lower(email) AS email FROM users WHERE lower(email) = ANY($1::text[])',
    [emails],
  );
  return new Map(users.map((u) => [u.email, u.id]));
}

/** Whether some organization has a pending (not yet accepted) email invite for this lower-case address. */
export async function hasPendingEmailInvite(db: Queryable, email: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM email_invites WHERE email = $1 AND accepted_at IS NULL LIMIT 1', [email]);
  return rows.length > 0;
}
