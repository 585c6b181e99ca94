import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { requireSite, requireSiteRole } from './access';
import { EMPTY_VISITOR_SCHEMA, checkVisitorSchema, templateConditions } from './adaptive-schema';
import type { SiteRow } from './tree';

/** The site's visitor schema as GitBook's `SiteAdaptiveSchema`. */
function presentSchema(site: SiteRow) {
  return {
    object: 'site-adaptive-schema' as const,
    jsonSchema: site.adaptive_schema ?? EMPTY_VISITOR_SCHEMA,
    updatedAt: (site.adaptive_schema_updated_at ?? site.created_at).toISOString(),
  };
}

/** GET the visitor schema (any member). */
export async function getAdaptiveSchema(ctx: AppContext, p: Principal, organizationId: string, siteId: string) {
  const { site } = await requireSite(ctx, p, organizationId, siteId);
  return presentSchema(site);
}

/** PUT a visitor schema (org "create"): validated as draft-07 and against GitBook's shape (400 otherwise). */
export async function putAdaptiveSchema(
  ctx: AppContext,
  p: Principal,
  organizationId: string,
  siteId: string,
  jsonSchema: unknown,
) {
  const { role } = await requireSite(ctx, p, organizationId, siteId);
  requireSiteRole(role, 'create', 'change the visitor schema of this site');
  const schema = checkVisitorSchema(jsonSchema);
  const now = ctx.clock.now();
  await ctx.db.query(
    'UPDATE sites SET adaptive_schema = $2, adaptive_schema_updated_at = $3, updated_at = $3 WHERE id = $1',
    [siteId, JSON.stringify(schema), now],
  );
  const { site } = await requireSite(ctx, p, organizationId, siteId);
  return presentSchema(site);
}

/** Suggested conditions derived from the visitor schema. */
export async function listTemplateConditions(ctx: AppContext, p: Principal, organizationId: string, siteId: string) {
  const { site } = await requireSite(ctx, p, organizationId, siteId);
  return { items: templateConditions(site.adaptive_schema ?? EMPTY_VISITOR_SCHEMA) };
}
