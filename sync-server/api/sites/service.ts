import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest, conflict } from '../../http/errors';
import { newId } from '../../http/ids';
import { pageArray, type PageRequest } from '../../http/paging';
import { pathFromTitle } from '../../sites/refs';
import { organizationVerifiedHost } from '../../store/domain-claims';
import {
  deleteSiteRow,
  hostnameUsedByOtherSite,
  insertSiteRow,
  listSiteRows,
  setSectionDefaultSiteSpace,
  updateSiteSettings,
} from '../../store/sites';
import { insertSpace } from '../spaces/service';
import {
  authorizeSite,
  installationSiteIds,
  requireSiteActor,
  requireSiteTree,
  siteForDelete,
  type SiteRef,
} from './access';
import { loadActor } from '../../access/actor';
import { presentSite, presentSiteOf } from './present';
import { requirePublishableSpace } from './refs';
import { insertSiteSpace } from './site-spaces';
import { loadView, shareKeyFor } from './view';

/** The Site object as the caller sees it. */
export async function siteObjectFor(ctx: AppContext, p: Principal, ref: SiteRef) {
  return presentSiteOf(await loadView(ctx, p, ref));
}

/** Sites of an organization, oldest first, filtered by a published space, a title substring, or `published`. */
export async function listSites(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  filter: { space?: string; title?: string; published?: boolean },
  page: PageRequest,
) {
  // An installation's token lists the sites it runs on; everyone else, as site policy says.
  const installed = await installationSiteIds(ctx, p, organizationId);
  const actor = installed
    ? await loadActor(ctx.db, organizationId, p.userId)
    : await requireSiteActor(ctx, p, organizationId);
  const rows = await listSiteRows(ctx.db, organizationId, filter);
  const result = pageArray(installed ? rows.filter((r) => installed.includes(r.id)) : rows, page);
  return {
    ...result,
    items: result.items.map((s) => presentSite(ctx, s, actor, Number(s.site_spaces), shareKeyFor(s, actor, undefined))),
  };
}

/** A new site: its settings and what it publishes first. */
export interface NewSite {
  type?: string;
  title?: string;
  visibility?: string;
  spaces?: string[] | 'new';
}

/** A fresh random secret (share keys, visitor signing keys): 256 bits, URL-safe. */
export const newSecret = () => randomBytes(32).toString('base64url');

/** Creates a site, unpublished, with the given spaces at its root level (or a new space). */
export async function createSite(ctx: AppContext, p: Principal, organizationId: string, body: NewSite) {
  const actor = await requireSiteActor(ctx, p, organizationId);
  authorizeSite(actor, 'manage', organizationId, 'create a site');
  const id = newId();
  const now = ctx.clock.now();
  const title = body.title ?? 'Untitled site';
  const spaceIds = body.spaces === 'new' ? [] : [...new Set(body.spaces ?? [])];
  const spaces = await Promise.all(spaceIds.map((s) => requirePublishableSpace(ctx, actor, organizationId, s)));
  await ctx.db.transaction(async (tx) => {
    await insertSiteRow(
      tx,
      {
        id,
        organization_id: organizationId,
        type: body.type ?? 'basic',
        title,
        visibility: body.visibility ?? 'public',
        share_key: newSecret(),
        visitor_key: newSecret(),
      },
      p.userId,
      now,
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
  return siteObjectFor(ctx, p, { organizationId, siteId: id });
}

/** Changes to a site's settings. */
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

/** PATCH: settings of the site. */
export async function updateSite(ctx: AppContext, p: Principal, ref: SiteRef, body: SiteUpdate) {
  const { tree } = await requireSiteTree(ctx, p, ref, 'manage', 'change this site');
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
  if (body.hostname) await requireFreeHostname(ctx, ref.organizationId, body.hostname, ref.siteId);
  await ctx.db.transaction(async (tx) => {
    await updateSiteSettings(
      tx,
      ref.siteId,
      {
        title: body.title,
        visibility: body.visibility,
        basename: body.basename,
        hostname: body.hostname,
        agentsContext: body.agentsContext,
        proxy: body.proxy,
        adaptiveEnabled: body.adaptiveContent?.enabled,
        defaultSectionId: defaultSection,
        defaultSiteSpaceId: rootDefault,
      },
      ctx.clock.now(),
    );
    if (sectionDefault) await setSectionDefaultSiteSpace(tx, sectionDefault.section, sectionDefault.siteSpace);
  });
  return siteObjectFor(ctx, p, ref);
}

/**
 * A custom hostname must be free, must not be the server's own host (the
 * published site takes over every path of its hostname but /v1, so a site
 * claiming the API's host would shadow the web app), and must be proved: the
 * site's organization verified it or a domain it is under (api/domains).
 * Otherwise any organization could serve its pages as someone else's host.
 */
async function requireFreeHostname(
  ctx: AppContext,
  organizationId: string,
  hostname: string,
  siteId: string,
): Promise<void> {
  if (hostname === new URL(ctx.urls.root).hostname)
    throw badRequest('Invalid hostname: it is the hostname of this server');
  if (!(await organizationVerifiedHost(ctx.db, organizationId, hostname)))
    throw badRequest(
      `Invalid hostname: verify "${hostname}" (or a domain it is under) for this organization first (POST /v1/orgs/${organizationId}/domains, then .../verify)`,
    );
  if (await hostnameUsedByOtherSite(ctx.db, hostname, siteId))
    throw conflict(`The hostname "${hostname}" is already used by another site`);
}

/** Deletes a site and its structure; 204 also when it does not exist or is not visible. */
export async function deleteSite(ctx: AppContext, p: Principal, ref: SiteRef): Promise<void> {
  const access = await siteForDelete(ctx, p, ref, 'admin', 'delete this site');
  if (access) await deleteSiteRow(ctx.db, ref.siteId);
}
