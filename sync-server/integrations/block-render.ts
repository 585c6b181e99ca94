import { LRUCache } from 'lru-cache';
import type { IntegrationDispatcher } from './dispatcher';
import type { IntegrationResponse } from './types';

/**
 * Integration blocks: a `ui_render` event to the integration (GitBook's UIRenderEvent: componentId,
 * props, state, context, action) whose answer is the ContentKit output to draw. The first render of
 * a block — no state, no action: what a published page shows every reader — is cached briefly per
 * (integration version, installation, component, props, context), so a page read by many does not
 * run the script on every view; an interaction (an action, a state) always reaches the script.
 */

/** What to render, once the caller has checked who may see it. */
export interface BlockRenderRequest {
  integrationName: string;
  /** The installation's version of the integration: a new publish renders afresh. */
  integrationVersion: number;
  installationId: string;
  spaceId?: string;
  siteId?: string;
  componentId: string;
  props: Record<string, unknown>;
  state?: Record<string, unknown>;
  action?: Record<string, unknown>;
  /** GitBook's ContentKitContext (e.g. `{ type: 'document', spaceId, editable, theme }`). */
  context: Record<string, unknown>;
  /** The user the block is rendered for (GitBook's `auth.userId`), if any. */
  userId?: string;
}

export type BlockRenderResult =
  { ok: true; output: Record<string, unknown>; cached: boolean } | { ok: false; status: number; message: string };

/** How long a first render is reused. */
export const BLOCK_CACHE_TTL_MS = 60_000;

const MAX_OUTPUT_BYTES = 1024 * 1024;

function outputOf(response: IntegrationResponse): Record<string, unknown> | undefined {
  if (response.body.byteLength > MAX_OUTPUT_BYTES) return undefined;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(response.body));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The message of the runtime's error answer (`{"error": "..."}`), if it is one. */
function errorMessageOf(response: IntegrationResponse): string | undefined {
  const parsed = outputOf(response);
  return typeof parsed?.error === 'string' ? parsed.error : undefined;
}

export class BlockRenderer {
  private readonly cache: LRUCache<string, Record<string, unknown>>;

  constructor(
    private readonly dispatcher: IntegrationDispatcher,
    options: { ttlMs?: number; max?: number } = {},
  ) {
    this.cache = new LRUCache({ max: options.max ?? 1000, ttl: options.ttlMs ?? BLOCK_CACHE_TTL_MS });
  }

  /** Renders a block (see the module comment for what is cached). */
  async render(r: BlockRenderRequest, signal?: AbortSignal): Promise<BlockRenderResult> {
    const cacheable = r.state === undefined && r.action === undefined;
    const key = cacheable
      ? JSON.stringify([r.integrationName, r.integrationVersion, r.installationId, r.componentId, r.props, r.context])
      : undefined;
    const hit = key && this.cache.get(key);
    if (hit) return { ok: true, output: hit, cached: true };
    const event = {
      type: 'ui_render',
      // GitBook's UIRenderEvent is one of a space's, a site's or an installation's event, and a space's
      // is also an installation's: the space (site) is named by the context only, or none would match.
      installationId: r.installationId,
      ...(r.userId ? { auth: { userId: r.userId } } : {}),
      componentId: r.componentId,
      props: r.props,
      ...(r.state !== undefined ? { state: r.state } : {}),
      context: r.context,
      ...(r.action !== undefined ? { action: r.action } : {}),
    };
    const { result } = await this.dispatcher.dispatchNow(
      {
        integrationName: r.integrationName,
        installationId: r.installationId,
        ...(r.spaceId ? { spaceId: r.spaceId } : {}),
        ...(r.siteId ? { siteId: r.siteId } : {}),
        event,
      },
      signal ? { signal } : {},
    );
    if (!result.ok) return { ok: false, status: 502, message: result.reason };
    const { status } = result.response;
    if (status === 404)
      return { ok: false, status: 404, message: errorMessageOf(result.response) ?? 'Component not found' };
    if (status < 200 || status >= 300)
      return {
        ok: false,
        status: 502,
        message: `The integration answered ${status}${errorMessageOf(result.response) ? `: ${errorMessageOf(result.response)}` : ''}`,
      };
    const output = outputOf(result.response);
    if (!output)
      return { ok: false, status: 502, message: 'The integration did not answer a ContentKit output (JSON)' };
    if (key) this.cache.set(key, output);
    return { ok: true, output, cached: false };
  }
}
