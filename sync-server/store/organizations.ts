import { cachedQuery } from './read-cache';
import { queryOne, type Queryable } from './db';

/** An organization row as ORG_COLUMNS selects it. */
export interface OrgRow {
  id: string;
  title: string;
  created_at: Date;
  email_domains: string[];
  hostname: string | null;
  type: string;
  use_case: string | null;
  community_type: string | null;
  default_role: string | null;
  default_content: { type: 'site'; site: string } | null;
  sso: boolean;
  ai: boolean;
  invite_links: boolean;
  logo_url: string | null;
}

/** The columns of an organization row, on the alias `o`. */
const ORG_COLUMNS =
  'o.id, o.title, o.created_at, o.email_domains, o.hostname, o.type, o.use_case, o.community_type, o.default_role, o.default_content, o.sso, o.ai, o.invite_links, o.logo_url';

/** One page of a list and how many items the whole list has. */
export interface CountedPage<R> {
  rows: R[];
  total: number;
}

/**
 * One page of `SELECT columns from ORDER BY order` and the number of rows the
 * whole selection has, in one statement (a window count) while the page has
 * rows. Past the last page the window count is not there, so the total is
 * counted separately over the same selection (wrapped, so parameters that only
 * the columns use still have a type). `cached` reads the page through the
 * read cache. The page's limit and offset are appended to `params`.
 */
export async function selectCountedPage<R extends object>(
  db: Queryable,
  query: { columns: string; from: string; order: string; params: readonly unknown[]; cached?: boolean },
  page: { limit: number; offset: number },
): Promise<CountedPage<R>> {
  const n = query.params.length;
  const sql = `SELECT ${query.columns}, count(*) OVER ()::int AS total ${query.from}
    ORDER BY ${query.order} LIMIT $${n + 1} OFFSET $${n + 2}`;
  const params = [...query.params, page.limit, page.offset];
  const rows = query.cached
    ? await cachedQuery<R & { total: number }>(db, sql, params)
    : await db.query<R & { total: number }>(sql, params);
  if (rows[0]) return { rows, total: Number(rows[0].total) };
  const counted = await queryOne<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM (SELECT ${query.columns} ${query.from}) x`,
    query.params,
  );
  return { rows: [], total: Number(counted?.n ?? 0) };
}

/** An organization row by id, or undefined. */
export function loadOrganizationRow(db: Queryable, id: string): Promise<OrgRow | undefined> {
  return queryOne<OrgRow>(db, `SELECT ${ORG_COLUMNS} FROM organizations o WHERE o.id = $1`, [id]);
}

/** One page of the organizations a user is an active member of, oldest membership first, with their role in each. */
export function listOrganizationRowsOfUser(
  db: Queryable,
  userId: string,
  page: { limit: number; offset: number },
): Promise<CountedPage<OrgRow & { role: string | null }>> {
  return selectCountedPage(
    db,
    {
      columns: `${ORG_COLUMNS}, m.role`,
      from: 'FROM organizations o JOIN members m ON m.organization_id = o.id WHERE m.user_id = $1 AND NOT m.disabled',
      order: 'm.joined_at, o.id',
      params: [userId],
    },
    page,
  );
}

/**
 * The organization that declares an email domain AND has verified it (at most
 * one: a domain is verified for one organization per instance; migration
 * 0016), with the user's active membership (`is_member`, `role`) and whether
 * an admin removed the user from it (`was_removed`). A declared domain that is
 * not verified is a claim nobody proved: it routes, joins and vouches for no one.
 */
export function listOrganizationRowsByEmailDomain(
  db: Queryable,
  domain: string,
  userId: string,
): Promise<(OrgRow & { role: string | null; is_member: boolean; was_removed: boolean })[]> {
  return db.query(
    `SELECT ${ORG_COLUMNS}, m.role, (m.user_id IS NOT NULL) AS is_member,
            EXISTS (SELECT 1 FROM member_removals r WHERE r.organization_id = o.id AND r.user_id = $2) AS was_removed
       FROM organizations o
       JOIN domain_claims c ON c.organization_id = o.id AND c.domain = $1 AND c.verified_at IS NOT NULL
       LEFT JOIN members m ON m.organization_id = o.id AND m.user_id = $2 AND NOT m.disabled
      WHERE $1 = ANY(o.email_domains) ORDER BY o.created_at, o.id LIMIT 1000`,
    [domain, userId],
  );
}

/** Inserts an organization row (its first member is inserted with `insertMember`, in the same transaction). */
export async function insertOrganizationRow(
  db: Queryable,
  o: { id: string; title: string; emailDomains: string[]; createdAt: Date },
): Promise<void> {
  await db.query('INSERT INTO organizations (id, title, email_domains, created_at) VALUES ($1, $2, $3, $4)', [
    o.id,
    o.title,
    o.emailDomains,
    o.createdAt,
  ]);
}

/** The settings PATCH may change; undefined leaves a column as it is. */
export interface OrganizationChanges {
  title?: string;
  emailDomains?: string[];
  hostname?: string;
  defaultRole?: string | null;
  defaultContent?: { type: 'site'; site: string } | null;
  logoUrl?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
}

const CHANGE_COLUMNS: Record<keyof OrganizationChanges, string> = {
  title: 'title',
  emailDomains: 'email_domains',
  hostname: 'hostname',
  defaultRole: 'default_role',
  defaultContent: 'default_content',
  logoUrl: 'logo_url',
  sso: 'sso',
  ai: 'ai',
  inviteLinks: 'invite_links',
};

/** Writes the given settings of an organization. */
export async function updateOrganizationRow(db: Queryable, id: string, changes: OrganizationChanges): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [key, column] of Object.entries(CHANGE_COLUMNS) as [keyof OrganizationChanges, string][]) {
    let value = changes[key];
    if (value === undefined) continue;
    // A JSON column: the driver would otherwise send an object as a text array literal.
    if (key === 'defaultContent' && value !== null) value = JSON.stringify(value);
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  }
  if (sets.length === 0) return;
  await db.query(`UPDATE organizations SET ${sets.join(', ')} WHERE id = $1`, params);
}

/** Whether another organization already uses this hostname. */
export async function hostnameTakenByAnother(
  db: Queryable,
  hostname: string,
  organizationId: string,
): Promise<boolean> {
  return (
    (await queryOne(db, 'SELECT 1 FROM organizations WHERE hostname = $1 AND id <> $2', [hostname, organizationId])) !==
    undefined
  );
}

/**
 * Locks the organization row until the transaction ends, so that changes
 * which must see the organization's members as a whole (the last admin) run
 * one at a time.
 */
export async function lockOrganizationRow(tx: Queryable, organizationId: string): Promise<void> {
  await tx.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
}
