import type { AppContext } from '../../context';
import { badRequest } from '../../http/errors';
import { findSpecBySlug, findVersionRow, versionContent } from '../../store/openapi-specs';
import { operationBlocks, placeholderBlock } from '../../templates/openapi-blocks';
import type { SpaceTemplate, TemplateRefKind } from '../../templates/types';

/**
 * `params.contentRefs` of applyTemplateToSpace: GitBook's map of named
 * ContentRefs a template fills in. Each template declares the names it takes
 * and their kinds (a support URL, the OpenAPI spec of a reference); a name it
 * does not take, a kind it does not accept, a malformed value or a spec the
 * organization does not have is a 400 naming the field.
 */

export interface ResolvedRefs {
  /** Link targets by reference name, ready to sit in a markdown link. */
  refs: Map<string, string>;
  /** What replaces `{{openapi-operations}}`. */
  operations: string;
}

const MAX_URL = 2048;
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** A URL as a markdown link target: absolute, of a protocol a reader can follow, with no character that ends the link. */
function linkTarget(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_URL)
    throw badRequest(`${field}.url: must be a URL of at most ${MAX_URL} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(`${field}.url: "${value.slice(0, 100)}" is not an absolute URL`);
  }
  if (!LINK_PROTOCOLS.has(url.protocol))
    throw badRequest(`${field}.url: must be an http, https or mailto URL (not ${url.protocol})`);
  return url.href.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/ /g, '%20');
}

async function specSlug(ctx: AppContext, field: string, value: unknown, organizationId: string) {
  if (typeof value !== 'string' || value.length === 0 || value.length > 100)
    throw badRequest(`${field}.spec: must be the slug of an OpenAPI spec of this organization`);
  const spec = await findSpecBySlug(ctx.db, organizationId, value);
  if (!spec) throw badRequest(`${field}.spec: this organization has no OpenAPI spec "${value.slice(0, 100)}"`);
  return spec;
}

/** The operation blocks of the spec's latest version, or a placeholder block while it has none. */
async function blocksOf(ctx: AppContext, spec: { id: string; slug: string }): Promise<string> {
  const version = await findVersionRow(ctx.db, spec.id, 'latest');
  if (!version) return placeholderBlock(spec.slug, true);
  const bundle = await versionContent(ctx.db, version.id, 'bundle');
  let parsed: unknown;
  try {
    parsed = bundle ? JSON.parse(bundle) : undefined;
  } catch {
    parsed = undefined;
  }
  return operationBlocks(spec.slug, parsed) ?? placeholderBlock(spec.slug, false);
}

export async function resolveContentRefs(
  ctx: AppContext,
  template: SpaceTemplate,
  given: Record<string, { kind: string; [field: string]: unknown }>,
  organizationId: string,
): Promise<ResolvedRefs> {
  const refs = new Map<string, string>();
  const openapiFallback = template.refs.find((r) => r.kinds.includes('openapi'))?.fallback ?? 'your-api';
  let operations = placeholderBlock(openapiFallback, false);
  for (const [name, ref] of Object.entries(given)) {
    const field = `body.params.contentRefs.${name}`;
    const declared = template.refs.find((r) => r.name === name);
    if (!declared) {
      const names = template.refs.map((r) => `"${r.name}"`).join(', ') || 'none';
      throw badRequest(`${field}: the template "${template.id}" takes no reference "${name}" (it takes: ${names})`);
    }
    if (!declared.kinds.includes(ref.kind as TemplateRefKind))
      throw badRequest(`${field}.kind: must be ${declared.kinds.map((k) => `"${k}"`).join(' or ')}, not "${ref.kind}"`);
    if (ref.kind === 'url') refs.set(name, linkTarget(field, ref.url));
    else {
      const spec = await specSlug(ctx, field, ref.spec, organizationId);
      refs.set(name, spec.slug);
      operations = await blocksOf(ctx, spec);
    }
  }
  return { refs, operations };
}
