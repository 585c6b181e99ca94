import type { AppContext } from '../../context';
import { can, type Actor } from '../../policy';
import type { IntegrationEventRow, IntegrationRow } from '../../store/integrations';
import type { OrgRow } from '../../store/organizations';
import { organization } from '../authorize';
import { presentOrganization } from '../orgs/present';
import { extensionOf } from './images';
import { integrationEndpointPath } from '../../integrations/public-urls';

/** The integration in the API. Names are `[a-zA-Z0-9-_.]` only: nothing to escape in a path. */
export const integrationLocation = (ctx: AppContext, name: string) => ctx.urls.api(`/integrations/${name}`);

/** Where the integration's images are served without a token (`<assets>/<sha256>.<ext>`). */
export const assetsUrl = (ctx: AppContext, name: string) => `${integrationLocation(ctx, name)}/assets`;

const assetUrl = (ctx: AppContext, name: string, image: { sha256: string; contentType: string }) =>
  `${assetsUrl(ctx, name)}/${image.sha256}.${extensionOf(image.contentType)}`;

/**
 * GitBook's Integration for a caller who is `actor` in the owner organization (a non-member's actor
 * has no role there). Never the script nor the secrets. `publicEndpoint` is where the integration's
 * own HTTP handler answers (integrations/public-urls.ts: outside /v1, like its installations').
 */
export function presentIntegration(ctx: AppContext, row: IntegrationRow, owner: OrgRow, actor: Actor) {
  const m = row.manifest;
  const org = organization(row.organization_id);
  const publicEndpoint = `${ctx.urls.root}${integrationEndpointPath(row.name)}`;
  return {
    object: 'integration' as const,
    name: row.name,
    version: row.version,
    title: m.title,
    description: m.description,
    ...(m.summary !== undefined ? { summary: m.summary } : {}),
    previewImages: m.previewImages.map((image) => assetUrl(ctx, row.name, image)),
    target: m.target,
    // GitBook's team vouches for an integration; a self-hosted instance has no such review.
    verified: false,
    visibility: m.visibility,
    scopes: m.scopes,
    categories: m.categories,
    blocks: m.blocks,
    contentSources: m.contentSources,
    configurations: m.configurations,
    externalLinks: m.externalLinks,
    owner: presentOrganization(ctx, owner, actor.membership.role),
    urls: {
      location: integrationLocation(ctx, row.name),
      ...(m.icon ? { icon: assetUrl(ctx, row.name, m.icon) } : {}),
      app: ctx.urls.app(`/integrations/${row.name}`),
      assets: assetsUrl(ctx, row.name),
      publicEndpoint,
      publicContentEndpoint: publicEndpoint,
    },
    permissions: { admin: can(actor, 'publish-integrations', org) },
    ...(m.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: m.contentSecurityPolicy } : {}),
  };
}

export type PresentedIntegration = ReturnType<typeof presentIntegration>;

const LEVELS = new Set(['debug', 'info', 'warn', 'error']);

/** A stored trace entry as GitBook's IntegrationEventLog (unknown fields and levels left out). */
function presentLog(entry: unknown) {
  const e = (entry && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
  const time = typeof e.timestamp === 'string' || typeof e.timestamp === 'number' ? new Date(e.timestamp) : undefined;
  return {
    ...(typeof e.message === 'string' ? { message: e.message } : {}),
    ...(time && !Number.isNaN(time.getTime()) ? { timestamp: time.toISOString() } : {}),
    ...(typeof e.level === 'string' && LEVELS.has(e.level) ? { level: e.level as 'debug' } : {}),
  };
}

/** GitBook's IntegrationEvent (delivered events only: see store/integrations.ts). */
export function presentEvent(row: IntegrationEventRow) {
  return {
    id: row.id,
    integrationId: row.integration_name,
    ...(row.installation_id ? { installationId: row.installation_id } : {}),
    createdAt: row.created_at.toISOString(),
    payload: row.payload,
    status: row.status === 'success' ? ('success' as const) : ('failed' as const),
  };
}

/** GitBook's answer to getIntegrationEvent: the event and the log entries of its delivery. */
export function presentEventWithTrace(row: IntegrationEventRow) {
  return { event: presentEvent(row), trace: { logs: (Array.isArray(row.trace) ? row.trace : []).map(presentLog) } };
}
