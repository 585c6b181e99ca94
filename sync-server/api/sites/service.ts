import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { badRequest, conflict } from '../../http/errors';
import { newId } from '../../http/ids';
import { pageArray, type PageRequest } from '../../http/paging';
import { AccessIndex } from '../../policy/access';
import type { Queryable } from '../../store/db';
import { insertSpace } from '../spaces/service';
import {
  requireSite,
  requireSiteReader,
  requireSiteRole,
  requireSiteTree,
  siteForDelete,
  type SiteAccess,
} from './access';
import { keyAtEnd } from './ordering';
import { presentSite, presentSiteOf, shareKeyFor, type SiteView } from './present';
import { pathFromTitle, requirePublishableSpace } from './refs';
import { SITE_COLUMNS, SiteTree, type SiteRow } from './tree';

/** The presentation context of a loaded site for its caller. */
export function viewOf(ctx: AppContext, access: SiteAccess, tree: SiteTree, givenShareKey?: string): SiteView {
  return {
    ctx,
    tree,
    role: access.role,
    index: access.index,
    shareKey: shareKeyFor(tree.site, access.role, givenShareKey),
  };
}

/** The Site object as the caller sees it. */
export async function siteObjectFor(ctx: AppContext, p: Principal, organizationId: string, siteId: string) {
  const access = await requireSite(ctx, p, organizationId, siteId);
  return presentSiteOf(viewOf(ctx, access, await SiteTree.load(ctx.db, access.site)));
}

export interface SiteFilter {
  space?: string;
  title?: string;
  published?: boolean;
}

/** Sites of an organization, oldest first, filtered by a published space, a title substring, or `published`. */
export async function listSites(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  filter: SiteFilter,
  page: PageRequest,
) {
  const { role } = await requireSiteReader(ctx, p, organizationId);
  const rows = await ctx.db.query<SiteRow & { site_spaces: string }>(
    `SELECT ${SITE_COLUMNS}, (SELECT count(*) FROM site_spaces ss WHERE ss.site_id = sites.id) AS site_spaces FROM sites
      WHERE organization_id = $1
        AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM site_spaces ss WHERE ss.site_id = sites.id AND ss.space_id = $2))
        AND ($3::text IS NULL OR strpos(lower(title), lower($3)) > 0)
        AND ($4::boolean IS NULL OR published = $4)
      ORDER BY created_at, id`,
    [organizationId, filter.space ?? null, filter.title ?? null, filter.published ?? null],
  );
  const result = pageArray(rows, page);
  return {
    ...result,
    items: result.items.map((s) => presentSite(ctx, s, role, Number(s.site_spaces), shareKeyFor(s, role, undefined))),
  };
}

export interface NewSite {
  type?: string;
  title?: string;
  visibility?: string;
  spaces?: string[] | 'new';
}

/** A fresh random secret (share keys, visitor signing keys): 256 bits, URL-safe. */
export const newSecret = () => randomBytes(32).toString('base64url');

/** Creates a site (org "create"), unpublished, with the given spaces at its root level (or a new space). */
export async function createSite(ctx: AppContext, p: Principal, organizationId: string, body: NewSite) {
  const { membership, role } = await requireSiteReader(ctx, p, organizationId);
  requireSiteRole(role, 'create', 'create a site');
  const id = newId();
  const now = ctx.clock.now();
  const title = body.title ?? 'Untitled site';
  const fakeSite = { id, organization_id: organizationId } as SiteRow;
  const access: SiteAccess = { site: fakeSite, membership, role, index: await AccessIndex.load(ctx.db, membership) };
  const spaceIds = body.spaces === 'new' ? [] : [...new Set(body.spaces ?? [])];
  const spaces = await Promise.all(spaceIds.map((s) => requirePublishableSpace(ctx, access, s)));
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO sites (id, organization_id, type, title, visibility, share_key, visitor_key, created_by, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)`,
      [
        id,
        organizationId,
        body.type ?? 'basic',
        title,
        body.visibility ?? 'public',
        newSecret(),
        newSecret(),
        p.userId,
        now,
      ],
    );
    const toAdd = spaces.map((s) => ({ id: s.id, title: s.title }));
    if (body.spaces === 'new')
      toAdd.push({
        id: await insertSpace(ctx, tx, organizationId, null, { title: title.slice(0, 50) }, p.userId),
        title,
      });
    const taken: string[] = [];
    for (const space of toAdd)
      taken.push(await insertSiteSpace(tx, id, null, space.id, pathFromTitle(space.title, 'space', taken)));
  });
  return siteObjectFor(ctx, p, organizationId, id);
}

/** Inserts a site space at the end of its container (a section, or the root level) and returns its path. */
export async function insertSiteSpace(
  db: Queryable,
  siteId: string,
  sectionId: string | null,
  spaceId: string,
  path: string,
): Promise<string> {
  const siblings = await db.query<{ id: string; position: string }>(
    'SELECT id, position FROM site_spaces WHERE site_id = $1 AND section_id IS NOT DISTINCT FROM $2',
    [siteId, sectionId],
  );
  await db.query(
    'INSERT INTO site_spaces (id, site_id, section_id, space_id, path, position) VALUES ($1, $2, $3, $4, $5, $6)',
    [newId(), siteId, sectionId, spaceId, path, keyAtEnd(siblings)],
  );
  return path;
}

export interface SiteUpdate {
  title?: string;
  visibility?: string;
  basename?: string;
  hostname?: string | null;
  agentsContext?: string;
  defaultSiteSpace?: string;
  defaultSiteSection?: string;
  proxy?: string | null;
  adaptiveContent?: { enabled: boolean };
}

/** PATCH: settings of the site (org "create"). */
export async function updateSite(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  body: SiteUpdate,
) {
  const { tree } = await requireSiteTree(ctx, p, organizationId, siteId, 'create', 'change this site');
  const site = tree.site;
  let defaultSection = site.default_section_id;
  let rootDefault = site.default_site_space_id;
  let sectionDefault: { section: string; siteSpace: string } | undefined;
  if (body.defaultSiteSection !== undefined) {
    if (!tree.section(body.defaultSiteSection))
      throw badRequest(`Invalid defaultSiteSection: unknown section "${body.defaultSiteSection}"`);
    defaultSection = body.defaultSiteSection;
  }
  if (body.defaultSiteSpace !== undefined) {
    const ss = tree.siteSpace(body.defaultSiteSpace);
    if (!ss) throw badRequest(`Invalid defaultSiteSpace: unknown site space "${body.defaultSiteSpace}"`);
    if (tree.hasSections) {
      // As in GitBook: on a site with sections this picks the default site space of the default section.
      const target = defaultSection && tree.section(defaultSection) ? defaultSection : tree.defaultSectionId();
      if (ss.section_id !== target)
        throw badRequest(
          'Invalid defaultSiteSpace: on a site with sections it must be a site space of the default section',
        );
      sectionDefault = { section: ss.section_id, siteSpace: ss.id };
    } else rootDefault = ss.id;
  }
  if (body.hostname) await requireFreeHostname(ctx, body.hostname, siteId);
  await ctx.db.transaction(async (tx) => {
    await tx.query(
      `UPDATE sites SET
         title = COALESCE($2, title), visibility = COALESCE($3, visibility), basename = COALESCE($4, basename),
         hostname = CASE WHEN $5::boolean THEN $6 ELSE hostname END, agents_context = COALESCE($7, agents_context),
         proxy = CASE WHEN $8::boolean THEN $9 ELSE proxy END, adaptive_enabled = COALESCE($10, adaptive_enabled),
         default_section_id = $11, default_site_space_id = $12, updated_at = $13
       WHERE id = $1`,
      [
        siteId,
        body.title ?? null,
        body.visibility ?? null,
        body.basename ?? null,
        body.hostname !== undefined,
        body.hostname ?? null,
        body.agentsContext ?? null,
        body.proxy !== undefined,
        body.proxy ?? null,
        body.adaptiveContent?.enabled ?? null,
        defaultSection,
        rootDefault,
        ctx.clock.now(),
      ],
    );
    if (sectionDefault)
      await tx.query('UPDATE site_sections SET default_site_space_id = $2 WHERE id = $1', [
        sectionDefault.section,
        sectionDefault.siteSpace,
      ]);
  });
  return siteObjectFor(ctx, p, organizationId, siteId);
}

/**
 * A custom hostname must be free, and must not be the server's own host: the
 * published site takes over every path of its hostname but /v1, so a site
 * claiming the API's host would shadow the web app.
 */
async function requireFreeHostname(ctx: AppContext, hostname: string, siteId: string): Promise<void> {
  if (hostname === new URL(ctx.urls.root).hostname)
    throw badRequest('Invalid hostname: it is the hostname of this server');
  const rows = await ctx.db.query<{ id: string }>('SELECT id FROM sites WHERE hostname = $1 AND id <> $2', [
    hostname,
    siteId,
  ]);
  if (rows.length > 0) throw conflict(`The hostname "${hostname}" is already used by another site`);
}

/** Publishes or unpublishes the site (org "create"). */
export async function setPublished(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  published: boolean,
) {
  const access = await requireSite(ctx, p, organizationId, siteId);
  requireSiteRole(access.role, 'create', published ? 'publish this site' : 'unpublish this site');
  await ctx.db.query('UPDATE sites SET published = $2, updated_at = $3 WHERE id = $1', [
    siteId,
    published,
    ctx.clock.now(),
  ]);
  return siteObjectFor(ctx, p, organizationId, siteId);
}

/** Deletes a site and its structure (org "admin"); 204 also when it does not exist or is not visible. */
export async function deleteSite(ctx: AppContext, p: Principal, organizationId: string, siteId: string): Promise<void> {
  const access = await siteForDelete(ctx, p, organizationId, siteId);
  if (!access) return;
  requireSiteRole(access.role, 'admin', 'delete this site');
  await ctx.db.query('DELETE FROM sites WHERE id = $1', [siteId]);
}
