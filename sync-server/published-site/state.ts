import { createHash } from 'node:crypto';
import { SITE_COLUMNS, SiteTree, type SiteRow } from '../api/sites/tree';
import type { AppContext } from '../context';
import { queryOne } from '../store/db';
import { cachedRead } from '../store/read-cache';

/**
 * What serving a published site needs from the database: the site and its
 * whole structure, with the current revision id of every space. Read through
 * the read cache, so a hot page costs no query; any write (a merge, a live
 * edit becoming a revision, a site change) invalidates it, and its TTL bounds
 * staleness from other processes.
 */
export interface PublishedState {
  tree: SiteTree;
  /** Identity of the site configuration and structure, for keys of rendered pages. */
  signature: string;
}

/** The state of a site by id, or null when there is no such site. */
export function stateById(ctx: AppContext, siteId: string): Promise<PublishedState | null> {
  return cachedRead(ctx.db, `published-site:${siteId}`, async () => {
    const site = await queryOne<SiteRow>(ctx.db, `SELECT ${SITE_COLUMNS} FROM sites WHERE id = $1`, [siteId]);
    return site ? stateOf(ctx, site) : null;
  });
}

/** The id of the site whose custom hostname is `host` (lowercase, no port), or null. Nulls are cached too. */
export function siteIdForHost(ctx: AppContext, host: string): Promise<string | null> {
  return cachedRead(
    ctx.db,
    `published-host:${host}`,
    async () =>
      (await queryOne<{ id: string }>(ctx.db, 'SELECT id FROM sites WHERE hostname = $1', [host]))?.id ?? null,
  );
}

async function stateOf(ctx: AppContext, site: SiteRow): Promise<PublishedState> {
  const tree = await SiteTree.load(ctx.db, site);
  const spaces = [...tree.spaces.values()].map((s) => [s.id, s.revision, s.title, s.deleted_at !== null]);
  const signature = createHash('sha256')
    .update(JSON.stringify([site, tree.groups, tree.sections, tree.siteSpaces, spaces]))
    .digest('base64url');
  return { tree, signature };
}
