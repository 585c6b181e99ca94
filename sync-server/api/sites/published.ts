import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { notFound } from '../../http/errors';
import { setSitePublished, setSiteVisitorKey } from '../../store/sites';
import { requireSite, type SiteRef } from './access';
import { getCustomization } from './customization';
import { presentSiteOf, presentStructure } from './present';
import { newSecret, siteObjectFor } from './service';
import { loadView } from './view';

/** Publishing a site: its published profile, publishing itself, and the key that signs visitor tokens. */

/**
 * The published profile of a site (GitBook's `published-content-site`): the
 * site, its structure and customization. 404 while the site is unpublished:
 * there is no published content to describe.
 */
export async function publishedSite(ctx: AppContext, p: Principal, ref: SiteRef, shareKey: string | undefined) {
  const v = await loadView(ctx, p, ref, shareKey);
  if (!v.tree.site.published) throw notFound('Published site');
  // Site spaces have no overrides of their own (yet): each shows the site's customization.
  const site = await getCustomization(ctx, p, ref);
  const siteSpaces = Object.fromEntries(v.tree.siteSpaces.map((s) => [s.id, site]));
  return {
    object: 'published-content-site' as const,
    site: presentSiteOf(v),
    structure: presentStructure(v),
    customizations: { site, siteSpaces },
    scripts: [],
  };
}

/** Publishes or unpublishes the site. */
export async function setPublished(ctx: AppContext, p: Principal, ref: SiteRef, published: boolean) {
  await requireSite(ctx, p, ref, 'manage', published ? 'publish this site' : 'unpublish this site');
  await setSitePublished(ctx.db, ref.siteId, published, ctx.clock.now());
  return siteObjectFor(ctx, p, ref);
}

const publishingAuth = (privateKey: string) => ({
  object: 'publishing-auth' as const,
  backend: 'custom' as const,
  privateKey,
});

/** The key that signs visitor tokens (GitBook's `publishing-auth`), for those who administer the site. */
export async function getPublishingAuth(ctx: AppContext, p: Principal, ref: SiteRef) {
  const { site } = await requireSite(ctx, p, ref, 'admin', 'read the visitor signing key of this site');
  return publishingAuth(site.visitor_key);
}

/** Replaces the visitor signing key: every visitor token signed with the old key stops working at once. */
export async function regeneratePublishingAuth(ctx: AppContext, p: Principal, ref: SiteRef) {
  await requireSite(ctx, p, ref, 'admin', 'regenerate the visitor signing key of this site');
  const privateKey = newSecret();
  await setSiteVisitorKey(ctx.db, ref.siteId, privateKey, ctx.clock.now());
  return publishingAuth(privateKey);
}
