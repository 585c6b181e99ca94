import type { Static } from 'typebox';
import { badRequest } from '../../http/errors';
import type { AssetBytes, IntegrationManifest } from '../../store/integrations';
import { decodeImage, MAX_ICON_BYTES, MAX_PREVIEW_BYTES } from './images';
import type { PublishBody } from './schemas';

/**
 * A publish body → what is stored: the manifest (images as references), the images' bytes, and
 * the secrets as one JSON text to seal. The route's schema checked the shapes; what a schema
 * cannot say (one form of configuration or the other, fields that go with a property's type,
 * unique ids, `required` naming declared properties, link schemes) is checked here, each with
 * a 400 that names the field.
 */

export type PublishInput = Static<typeof PublishBody>;

type Configuration = NonNullable<NonNullable<PublishInput['configurations']>['account']>;
type Property = NonNullable<Configuration['properties']>[string];

const unique = <T>(values: readonly T[]) => [...new Set(values)];

function requireUniqueIds(field: string, items: readonly { id: string }[]) {
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    if (seen.has(item.id)) throw badRequest(`${field}[${i}].id: "${item.id}" is used twice`);
    seen.add(item.id);
  }
}

/** The type-specific fields of one configuration property. */
function checkProperty(field: string, p: Property) {
  const only = (key: keyof Property, type: Property['type']) => {
    if (p[key] !== undefined && p.type !== type) throw badRequest(`${field}.${key}: only a "${type}" property has it`);
  };
  only('enum', 'string');
  only('completion_url', 'string');
  only('callback_url', 'button');
  only('button_text', 'button');
  if (p.type === 'button') {
    if (!p.callback_url || !p.button_text)
      throw badRequest(`${field}: a "button" property needs callback_url and button_text`);
    if (p.default !== undefined) throw badRequest(`${field}.default: a "button" property has no default`);
    return;
  }
  if (p.default !== undefined && typeof p.default !== p.type)
    throw badRequest(`${field}.default: must be a ${p.type}, like the property`);
  if (p.enum && typeof p.default === 'string' && !p.enum.includes(p.default))
    throw badRequest(`${field}.default: must be one of its enum values`);
}

/** A configuration is a schema (`properties`, `required`) or a ContentKit component (`componentId`). */
function checkConfiguration(field: string, c: Configuration) {
  if (c.componentId !== undefined) {
    if (c.properties !== undefined || c.required !== undefined)
      throw badRequest(`${field}: give either componentId or properties (and required), not both`);
    return;
  }
  if (c.properties === undefined) throw badRequest(`${field}: needs properties (a schema) or componentId`);
  for (const [name, p] of Object.entries(c.properties)) checkProperty(`${field}.properties.${name}`, p);
  for (const name of c.required ?? [])
    if (!Object.hasOwn(c.properties, name))
      throw badRequest(`${field}.required: "${name}" is not one of its properties`);
}

/** External links are shown as links to the integration's users: only http(s), never `javascript:`. */
function checkLinks(links: readonly { url: string }[]) {
  for (const [i, link] of links.entries()) {
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(link.url)?.[1]?.toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') throw badRequest(`externalLinks[${i}].url: must be an http(s) URL`);
  }
}

export interface PreparedPublish {
  manifest: IntegrationManifest;
  assets: AssetBytes[];
  /** The secrets as JSON text, or null when none were given. */
  secretsJson: string | null;
}

export function preparePublish(name: string, body: PublishInput): PreparedPublish {
  if (/^\.+$/.test(name)) throw badRequest('integrationName: a name of dots only is a path segment, not a name');
  const blocks = body.blocks ?? [];
  const contentSources = body.contentSources ?? [];
  requireUniqueIds('blocks', blocks);
  requireUniqueIds('contentSources', contentSources);
  const configurations = body.configurations ?? {};
  for (const [key, c] of Object.entries(configurations)) if (c) checkConfiguration(`configurations.${key}`, c);
  const externalLinks = body.externalLinks ?? [];
  checkLinks(externalLinks);

  const icon = body.icon !== undefined ? decodeImage('icon', body.icon, MAX_ICON_BYTES) : undefined;
  const previews = (body.previewImages ?? []).map((image, i) =>
    decodeImage(`previewImages[${i}]`, image, MAX_PREVIEW_BYTES),
  );
  const ref = (a: AssetBytes) => ({ sha256: a.sha256, contentType: a.contentType });
  const manifest: IntegrationManifest = {
    runtime: body.runtime ?? 'v1',
    title: body.title,
    description: body.description,
    ...(body.summary !== undefined ? { summary: body.summary } : {}),
    ...(icon ? { icon: ref(icon) } : {}),
    previewImages: previews.map(ref),
    // Published without a visibility, an integration is private: nobody else sees it by accident.
    visibility: body.visibility ?? 'private',
    target: body.target ?? 'all',
    scopes: unique(body.scopes),
    categories: unique(body.categories ?? []),
    blocks,
    contentSources,
    externalLinks,
    configurations,
    ...(body.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: body.contentSecurityPolicy } : {}),
  };
  const secrets = body.secrets ?? {};
  return {
    manifest,
    // The same bytes given twice (an icon reused as a preview) are stored once.
    assets: [...new Map([...(icon ? [icon] : []), ...previews].map((a) => [a.sha256, a])).values()],
    secretsJson: Object.keys(secrets).length > 0 ? JSON.stringify(secrets) : null,
  };
}
