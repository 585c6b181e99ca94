import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest } from '../../http/errors';
import { customizationProblem, DEFAULT_CUSTOMIZATION, mergeCustomization } from '../../sites/customization';
import { findSiteCustomization, saveSiteCustomization } from '../../store/site-customization';
import { requireSite, type SiteRef } from './access';

/** The SiteCustomizationSettings object: defaults, what the owner set over them, and when they last set it. */
function present(row: { settings: Record<string, unknown>; updated_at: Date } | undefined) {
  const settings = mergeCustomization(DEFAULT_CUSTOMIZATION, row?.settings ?? {});
  return row ? { ...settings, updatedAt: row.updated_at.toISOString() } : settings;
}

/** GET: the site's customization, for anyone who may see the site. */
export async function getCustomization(ctx: AppContext, p: Principal, ref: SiteRef) {
  await requireSite(ctx, p, ref);
  return present(await findSiteCustomization(ctx.db, ref.siteId));
}

/**
 * PUT: merges the body over the stored customization (a full GitBook body
 * replaces everything; a partial one changes what it names) after checking
 * the fields Folio renders. Needs the right to change the site's settings.
 */
export async function updateCustomization(ctx: AppContext, p: Principal, ref: SiteRef, body: Record<string, unknown>) {
  await requireSite(ctx, p, ref, 'manage', 'change the customization of this site');
  const problem = customizationProblem(body);
  if (problem) throw badRequest(problem);
  const { updatedAt: _ignored, ...input } = body;
  const stored = await findSiteCustomization(ctx.db, ref.siteId);
  const settings = mergeCustomization(stored?.settings ?? {}, input);
  const now = ctx.clock.now();
  await saveSiteCustomization(ctx.db, ref.siteId, settings, now);
  return present({ settings, updated_at: now });
}
