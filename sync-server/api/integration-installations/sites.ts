import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { notFound } from '../../http/errors';
import { findSiteById, type SiteRow } from '../../store/sites';
import { siteSpaceCounts } from '../../store/integration-installations';
import { requireSite, siteForDelete } from '../sites/access';
import { presentSite } from '../sites/present';
import { actorsFor, type ContentAccess } from './content-installations';
import { presentSiteInstallation } from './present';

/**
 * Installations on sites: who may install on a site is the site policy's `install-integration`
 * (the site's `permissions.installIntegration`). Sites are addressed by id alone on these routes;
 * their organization comes from the row.
 */

type SiteObject = ReturnType<typeof presentSite>;

const PHRASE = 'install integrations on this site';

async function siteRef(ctx: AppContext, siteId: string) {
  const site = await findSiteById(ctx.db, siteId);
  return site && { organizationId: site.organization_id, siteId };
}

export const SITE_ACCESS: ContentAccess<ReturnType<typeof presentSiteInstallation<SiteObject>>, SiteObject> = {
  kind: 'site',

  async requireAdmin(ctx: AppContext, p: Principal, siteId: string) {
    const ref = await siteRef(ctx, siteId);
    if (!ref) throw notFound('Site');
    await requireSite(ctx, p, ref, 'install-integration', PHRASE);
    return ref.organizationId;
  },

  async adminForDelete(ctx, p, siteId) {
    const ref = await siteRef(ctx, siteId);
    return ref && (await siteForDelete(ctx, p, ref, 'install-integration', PHRASE)) ? ref.organizationId : undefined;
  },

  async objects(ctx, p, siteIds) {
    const rows = (await Promise.all(siteIds.map((id) => findSiteById(ctx.db, id)))).filter(
      (r): r is SiteRow => r !== undefined,
    );
    const actors = await actorsFor(
      ctx,
      p,
      rows.map((r) => r.organization_id),
    );
    const counts = await siteSpaceCounts(
      ctx.db,
      rows.map((r) => r.id),
    );
    return new Map(rows.map((s) => [s.id, presentSite(ctx, s, actors.get(s.organization_id)!, counts.get(s.id) ?? 0)]));
  },

  present: (ctx, integration, row, site) => presentSiteInstallation(ctx, integration, row, site),
};
