import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { notFound } from '../../http/errors';
import { requireSite } from './access';
import { presentSiteOf, presentStructure } from './present';
import { viewOf } from './service';
import { SiteTree } from './tree';

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
export async function publishedSite(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  shareKey: string | undefined,
) {
  const access = await requireSite(ctx, p, organizationId, siteId);
  if (!access.site.published) throw notFound('Published site');
  const tree = await SiteTree.load(ctx.db, access.site);
  const v = viewOf(ctx, access, tree, shareKey);
  const siteSpaces = Object.fromEntries(tree.siteSpaces.map((s) => [s.id, DEFAULT_CUSTOMIZATION]));
  return {
    object: 'published-content-site' as const,
    site: presentSiteOf(v),
    structure: presentStructure(v),
    customizations: { site: DEFAULT_CUSTOMIZATION, siteSpaces },
    scripts: [],
  };
}
