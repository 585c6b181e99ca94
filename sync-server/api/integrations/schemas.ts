import { Type, type TSchema } from 'typebox';
import { PagingQuery } from '../../http/paging';
import { Timestamp, Url } from '../../http/schemas';
import { OrganizationSchema } from '../orgs/schemas';
import { base64Length, MAX_ICON_BYTES, MAX_PREVIEW_BYTES } from './images';

/** GitBook's enums, as one `enum` each (a union of literals costs a validator run per response). */
const oneOf = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

export const TARGETS = ['all', 'site', 'space', 'organization'] as const;
export const VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export const CATEGORIES = ['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other'] as const;
export const SCOPES = [
  'space:content:read',
  'space:content:write',
  'space:metadata:read',
  'space:metadata:write',
  'space:git:sync',
  'page:feedback:read',
  'site:metadata:read',
  'site:views:read',
  'site:script:inject',
  'site:script:cookies',
  'site:visitor:auth',
  'site:visitor:claims',
  'site:adaptive:read',
  'site:adaptive:write',
  'conversations:ingest',
  'openapi:read',
  'openapi:write',
] as const;

export const Target = oneOf(TARGETS);
export const Visibility = oneOf(VISIBILITIES);
export const Category = oneOf(CATEGORIES);
export const Scope = oneOf(SCOPES);

/** GitBook's integration name; the service also refuses names of dots only (`.`, `..` are path segments). */
export const INTEGRATION_NAME_PATTERN = '^[a-zA-Z0-9-_.]+$';
export const IntegrationName = Type.String({ pattern: INTEGRATION_NAME_PATTERN, minLength: 1, maxLength: 100 });

export const IntegrationParams = Type.Object({ integrationName: IntegrationName });
export const EventParams = Type.Object({
  integrationName: IntegrationName,
  eventId: Type.String({ minLength: 1, maxLength: 64 }),
});
export const AssetParams = Type.Object({
  integrationName: IntegrationName,
  file: Type.String({ minLength: 1, maxLength: 80, description: '<sha256>.<extension>' }),
});

/** The longest bundled script a publish takes (characters). */
export const MAX_SCRIPT_LENGTH = 5 * 1024 * 1024;

const Title = Type.String({ minLength: 2, maxLength: 30 });
const Description = Type.String({ maxLength: 100 });
const Summary = Type.String({ maxLength: 2048 });
const ShortId = Type.String({ minLength: 1, maxLength: 100 });
const IconUrl = Type.String({ minLength: 1, maxLength: 2048 });

const strict = { additionalProperties: false } as const;

/** GitBook's IntegrationBlock. */
const Block = Type.Object(
  {
    id: ShortId,
    title: Type.String({ minLength: 2, maxLength: 40 }),
    description: Type.Optional(Type.String({ maxLength: 150 })),
    icon: Type.Optional(IconUrl),
    urlUnfurl: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2048 }), { maxItems: 50 })),
    markdown: Type.Optional(
      Type.Object({ codeblock: Type.String({ minLength: 1, maxLength: 100 }), body: ShortId }, strict),
    ),
  },
  strict,
);

const Component = Type.Object({ componentId: ShortId }, strict);

/** GitBook's IntegrationContentSource. */
const ContentSource = Type.Object(
  {
    id: ShortId,
    title: Type.String({ minLength: 2, maxLength: 40 }),
    description: Type.Optional(Type.String({ maxLength: 150 })),
    icon: Type.Optional(IconUrl),
    configuration: Component,
  },
  strict,
);

/**
 * One property of a configuration schema (GitBook's allOf of a title/description and a oneOf on
 * `type`), written as one object: which fields go with which type is checked by the service, so a
 * mistake is one clear message rather than Ajv's report of every branch.
 */
const ConfigurationProperty = Type.Object(
  {
    type: oneOf(['string', 'number', 'boolean', 'button'] as const),
    title: Type.Optional(Type.String({ minLength: 2, maxLength: 50 })),
    description: Type.Optional(Type.String({ maxLength: 100 })),
    default: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Number(), Type.Boolean()])),
    completion_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    enum: Type.Optional(Type.Array(Type.String({ maxLength: 2048 }), { maxItems: 200 })),
    callback_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    button_text: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  strict,
);

/**
 * GitBook's IntegrationConfiguration: a schema (`properties`, `required`) or a ContentKit component
 * (`componentId`), one object whose two forms the service tells apart.
 */
const Configuration = Type.Object(
  {
    properties: Type.Optional(
      Type.Record(Type.String(), ConfigurationProperty, { maxProperties: 50, propertyNames: ShortId }),
    ),
    required: Type.Optional(Type.Array(ShortId, { maxItems: 50 })),
    componentId: Type.Optional(ShortId),
  },
  strict,
);

const Configurations = Type.Object(
  { account: Type.Optional(Configuration), space: Type.Optional(Configuration), site: Type.Optional(Configuration) },
  strict,
);

const ExternalLinks = Type.Array(
  Type.Object(
    { url: Type.String({ format: 'uri', maxLength: 2048 }), label: Type.String({ minLength: 1, maxLength: 100 }) },
    strict,
  ),
  { maxItems: 5 },
);

/** GitBook's IntegrationContentSecurityPolicy: a header value, or its directives one by one. */
const ContentSecurityPolicy = Type.Union([
  Type.String({ maxLength: 4096 }),
  Type.Record(Type.String(), Type.String({ maxLength: 4096 }), { maxProperties: 40 }),
]);

/** GitBook's PublishIntegration. */
export const PublishBody = Type.Object(
  {
    runtime: Type.Optional(oneOf(['v1', 'v2'] as const)),
    icon: Type.Optional(
      Type.String({ maxLength: base64Length(MAX_ICON_BYTES) + 8192, description: 'Base64 PNG, JPEG, GIF or WebP' }),
    ),
    title: Title,
    description: Description,
    summary: Type.Optional(Summary),
    previewImages: Type.Optional(
      Type.Array(Type.String({ maxLength: base64Length(MAX_PREVIEW_BYTES) + 32768 }), { maxItems: 3 }),
    ),
    visibility: Type.Optional(Visibility),
    target: Type.Optional(Target),
    scopes: Type.Array(Scope, { maxItems: SCOPES.length }),
    categories: Type.Optional(Type.Array(Category, { maxItems: CATEGORIES.length })),
    blocks: Type.Optional(Type.Array(Block, { maxItems: 100 })),
    contentSources: Type.Optional(Type.Array(ContentSource, { maxItems: 100 })),
    externalLinks: Type.Optional(ExternalLinks),
    configurations: Type.Optional(Configurations),
    script: Type.String({ maxLength: MAX_SCRIPT_LENGTH, description: 'The bundled script' }),
    organization: Type.String({
      minLength: 1,
      maxLength: 253,
      description: 'The ID or subdomain (hostname) of the publishing organization',
    }),
    secrets: Type.Optional(
      Type.Record(Type.String(), Type.String({ maxLength: 10_000 }), {
        maxProperties: 20,
        propertyNames: Type.String({ pattern: '^[A-Za-z0-9_.-]+$', minLength: 1, maxLength: 100 }),
        description: 'Given to the script at run time; sealed at rest and never returned',
      }),
    ),
    contentSecurityPolicy: Type.Optional(ContentSecurityPolicy),
  },
  strict,
);

/** Room for the largest script (JSON-escaped) and images (Fastify's default is 1 MiB). */
export const PUBLISH_BODY_LIMIT =
  Math.ceil(MAX_SCRIPT_LENGTH * 1.5) + base64Length(MAX_ICON_BYTES + 3 * MAX_PREVIEW_BYTES) + 1024 * 1024;

export const DevelopmentModeBody = Type.Object(
  {
    tunnelUrl: Type.String({ minLength: 1, maxLength: 256, description: 'URL of the tunnel to dispatch events to' }),
    all: Type.Optional(
      Type.Boolean({ description: "Forward every organization's events, not only the owner organization's" }),
    ),
  },
  strict,
);

/** GitBook's list filters of listIntegrations and listOrganizationIntegrations. */
export const ListQuery = Type.Object({
  ...PagingQuery,
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name or title' })),
  category: Type.Optional(Category),
  blockDomain: Type.Optional(Type.String({ pattern: INTEGRATION_NAME_PATTERN, maxLength: 100 })),
  blocks: Type.Optional(Type.Boolean()),
  contentSources: Type.Optional(Type.Boolean()),
  owner: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'ID or hostname of the owner' })),
  scope: Type.Optional(Scope),
  target: Type.Optional(Target),
});

const Free = (description?: string): TSchema =>
  Type.Object({}, { additionalProperties: true, ...(description ? { description } : {}) });

/** GitBook's Integration (no script, no secrets: those never leave the server). */
export const IntegrationSchema = Type.Object({
  object: Type.Literal('integration'),
  name: Type.String(),
  version: Type.Number(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  summary: Type.Optional(Type.String()),
  previewImages: Type.Array(Url),
  target: Target,
  verified: Type.Boolean(),
  visibility: Visibility,
  scopes: Type.Array(Type.String()),
  categories: Type.Array(Type.String()),
  blocks: Type.Optional(Type.Array(Free())),
  contentSources: Type.Optional(Type.Array(Free())),
  configurations: Type.Optional(Free()),
  externalLinks: Type.Array(Type.Object({ url: Type.String(), label: Type.String() })),
  owner: OrganizationSchema,
  urls: Type.Object({
    location: Url,
    icon: Type.Optional(Url),
    app: Url,
    assets: Url,
    publicEndpoint: Url,
    publicContentEndpoint: Url,
  }),
  permissions: Type.Object({ admin: Type.Boolean() }),
  contentSecurityPolicy: Type.Optional(Type.Union([Type.String(), Free()])),
});

/** GitBook's IntegrationEvent; `payload` is the dispatched event as it was sent. */
export const EventSchema = Type.Object({
  id: Type.String(),
  integrationId: Type.String(),
  installationId: Type.Optional(Type.String()),
  createdAt: Timestamp,
  payload: Free("The event as dispatched (GitBook's Event)"),
  status: oneOf(['success', 'failed'] as const),
});

export const EventLogSchema = Type.Object({
  message: Type.Optional(Type.String()),
  timestamp: Type.Optional(Timestamp),
  level: Type.Optional(oneOf(['debug', 'info', 'warn', 'error'] as const)),
});

export const EventWithTraceSchema = Type.Object({
  event: EventSchema,
  trace: Type.Object({ logs: Type.Array(EventLogSchema) }),
});
