import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { badRequest } from '../../http/errors';
import { EMPTY_VISITOR_SCHEMA, templateConditions, visitorSchemaProblem } from '../../sites/adaptive-schema';
import { setSiteAdaptiveSchema, type SiteRow } from '../../store/sites';
import { requireSite, type SiteRef } from './access';

/** The site's visitor schema as GitBook's `SiteAdaptiveSchema`. */
function presentSchema(site: SiteRow) {
  return {
    object: 'site-adaptive-schema' as const,
    jsonSchema: site.adaptive_schema ?? EMPTY_VISITOR_SCHEMA,
    updatedAt: (site.adaptive_schema_updated_at ?? site.created_at).toISOString(),
  };
}

/** GET the visitor schema (any member). */
export async function getAdaptiveSchema(ctx: AppContext, p: Principal, ref: SiteRef) {
  const { site } = await requireSite(ctx, p, ref);
  return presentSchema(site);
}

/** PUT a visitor schema: validated as draft-07 and against GitBook's shape (400 otherwise). */
export async function putAdaptiveSchema(ctx: AppContext, p: Principal, ref: SiteRef, jsonSchema: unknown) {
  await requireSite(ctx, p, ref, 'edit-adaptive-schema', 'change the visitor schema of this site');
  const problem = visitorSchemaProblem(jsonSchema);
  if (problem) throw badRequest(problem);
  await setSiteAdaptiveSchema(ctx.db, ref.siteId, jsonSchema as object, ctx.clock.now());
  const { site } = await requireSite(ctx, p, ref);
  return presentSchema(site);
}

/** Suggested conditions derived from the visitor schema. */
export async function listTemplateConditions(ctx: AppContext, p: Principal, ref: SiteRef) {
  const { site } = await requireSite(ctx, p, ref);
  return { items: templateConditions(site.adaptive_schema ?? EMPTY_VISITOR_SCHEMA) };
}
