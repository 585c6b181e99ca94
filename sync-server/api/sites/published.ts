import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { notFound } from '../../http/errors';
import { setSitePublished, setSiteVisitorKey } from '../../store/sites';
import { requireSite, type SiteRef } from './access';
import { presentSiteOf, presentStructure } from './present';
import { newSecret, siteObjectFor } from './service';
import { loadView } from './view';

/** Publishing a site: its published profile, publishing itself, and the key that signs visitor tokens. */

const color = (light: string, dark: string) => ({ light, dark });

/**
 * The customization GitBook reports for a site nobody customized. Folio's
 * published pages have one look; this says so in GitBook's shape so clients
 * of `getPublishedContentSite` can read it.
 */
export const DEFAULT_CUSTOMIZATION = Object.freeze({
  styling: {
    theme: 'clean',
    primaryColor: color('#346DDB', '#346DDB'),
    infoColor: color('#787878', '#787878'),
    successColor: color('#00C950', '#00C950'),
    warningColor: color('#FE9A00', '#FE9A00'),
    dangerColor: color('#FB2C36', '#FB2C36'),
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: false },
  feedback: { enabled: false },
  ai: { mode: 'none' },
  advancedCustomization: { enabled: false },
  trademark: { enabled: false },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { items: [] },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: false },
});

/**
 * The published profile of a site (GitBook's `published-content-site`): the
 * site, its structure and customization. 404 while the site is unpublished:
 * there is no published content to describe.
 */
export async function publishedSite(ctx: AppContext, p: Principal, ref: SiteRef, shareKey: string | undefined) {
  const v = await loadView(ctx, p, ref, shareKey);
  if (!v.tree.site.published) throw notFound('Published site');
  const siteSpaces = Object.fromEntries(v.tree.siteSpaces.map((s) => [s.id, DEFAULT_CUSTOMIZATION]));
  return {
    object: 'published-content-site' as const,
    site: presentSiteOf(v),
    structure: presentStructure(v),
    customizations: { site: DEFAULT_CUSTOMIZATION, siteSpaces },
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
