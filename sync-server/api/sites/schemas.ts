import { Type, type TSchema } from 'typebox';
import { EntityId, OrgParams, Url } from '../../http/schemas';
import { LANGUAGES, SpaceSchema } from '../spaces/schemas';

/**
 * Schemas of docs sites, mirroring GitBook's components of the same names
 * (limits and patterns from the spec). Response schemas list every field:
 * Fastify's serializer drops what they do not name.
 */
const b = Type.Boolean();
const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const SiteVisibility = Type.Union(SITE_VISIBILITIES.map((v) => Type.Literal(v)));
export const SiteType = Type.Union(
  ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'].map((v) => Type.Literal(v)),
);
export const SiteTitle = Type.String({ minLength: 2, maxLength: 128 });
export const SiteHostname = Type.String({
  maxLength: 512,
  pattern: '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$',
});
export const SiteProxyOrigin = Type.String({
  maxLength: 512,
  pattern: '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$',
});
export const SiteBasename = Type.String({ minLength: 1, maxLength: 100 });
export const AgentsContext = Type.Union([Type.Literal('excluded'), Type.Literal('included')]);
/** An icon name ("gear", "circle-info"): GitBook's Icon, max 50. */
export const Icon = Type.String({ maxLength: 50, pattern: '^[a-z0-9-]+$' });
/** A path segment of a section or site space on the published site. */
export const SitePath = Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' });
/** A visitor condition (GitBook's Expression), checked further by the expression parser. */
export const Expression = Type.String({ minLength: 0, maxLength: 1024 });
export const SectionTitle = Type.String({ minLength: 2, maxLength: 128 });
export const GroupTitle = Type.String({ minLength: 1, maxLength: 100 });
export const SectionDescription = Type.String({ minLength: 0, maxLength: 256 });
/**
 * GitBook's LocalizedString128/256: overrides for non-default languages keyed
 * by TranslationLanguage ({"fr": "Guide"}). An object, not an array.
 */
const LocalizedString = (maxLength: number) =>
  Type.Unsafe<Record<string, string>>({
    type: 'object',
    propertyNames: { enum: [...LANGUAGES] },
    additionalProperties: { type: 'string', maxLength },
  });
export const LocalizedString128 = LocalizedString(128);
export const LocalizedString256 = LocalizedString(256);

export const SiteParams = Type.Object({ ...OrgParams.properties, siteId: EntityId });
export const SectionParams = Type.Object({ ...SiteParams.properties, siteSectionId: EntityId });
export const GroupParams = Type.Object({ ...SiteParams.properties, siteSectionGroupId: EntityId });
export const GroupSectionParams = Type.Object({ ...GroupParams.properties, siteSectionId: EntityId });
export const SiteSpaceParams = Type.Object({ ...SiteParams.properties, siteSpaceId: EntityId });
export const ShareKeyQuery = {
  shareKey: Type.Optional(
    Type.String({ maxLength: 200, description: 'For share-link sites: resolves published URLs with this key' }),
  ),
};

const Permissions = Type.Object({
  view: b,
  access: b,
  edit: b,
  create: b,
  admin: b,
  installIntegration: b,
  viewAdaptiveSchema: b,
  editAdaptiveSchema: b,
});
const PublishedUrls = Type.Object({ published: Type.Optional(Url) });

export const SiteSchema = Type.Object({
  object: Type.Literal('site'),
  id: Type.String(),
  type: Type.String(),
  appliedType: Type.String(),
  title: Type.String(),
  hostname: Type.Optional(Type.String()),
  basename: Type.Optional(Type.String()),
  proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String() })),
  visibility: Type.String(),
  defaultLevel: Type.String(),
  permissions: Permissions,
  published: b,
  siteSpaces: Type.Number(),
  createdAt: Type.String({ format: 'date-time' }),
  adaptiveContent: Type.Object({ enabled: b }),
  agentsContext: Type.String(),
  features: Type.Array(Type.Object({ id: Type.String(), plan: Type.String(), frozen: b })),
  urls: Type.Object({ location: Url, app: Url, preview: Url, published: Type.Optional(Url) }),
});

export const SiteSpaceSchema = Type.Object({
  object: Type.Literal('site-space'),
  id: Type.String(),
  path: Type.String(),
  section: Type.Optional(Type.String()),
  space: SpaceSchema,
  title: Type.String(),
  default: b,
  condition: Type.Optional(Type.String()),
  draft: b,
  hidden: b,
  hasAdvancedCustomizationFeature: b,
  urls: PublishedUrls,
});

export const SectionSchema = Type.Object({
  object: Type.Literal('site-section'),
  id: Type.String(),
  title: Type.String(),
  localizedTitle: Type.Optional(LocalizedString128),
  description: Type.Optional(Type.String()),
  localizedDescription: Type.Optional(LocalizedString256),
  default: b,
  draft: b,
  path: Type.String(),
  condition: Type.Optional(Type.String()),
  sectionGroup: Type.Optional(Type.String()),
  siteSpaces: Type.Array(SiteSpaceSchema),
  urls: PublishedUrls,
  icon: Type.Optional(Type.String()),
});

export const GroupSchema = Type.Object({
  object: Type.Literal('site-section-group'),
  id: Type.String(),
  title: Type.String(),
  draft: b,
  sections: Type.Array(SectionSchema),
  children: Type.Array(SectionSchema),
  icon: Type.Optional(Type.String()),
});

export const CreateSiteBody = Type.Object(
  {
    type: Type.Optional(SiteType),
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(SiteVisibility),
    spaces: Type.Optional(
      Type.Union([Type.Array(EntityId, { maxItems: 100 }), Type.Literal('new')], {
        description: 'Space ids to publish, or "new" for a new space',
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateSiteBody = Type.Object(
  {
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(SiteVisibility),
    basename: Type.Optional(SiteBasename),
    hostname: Type.Optional(nullable(SiteHostname)),
    agentsContext: Type.Optional(AgentsContext),
    defaultSiteSpace: Type.Optional(EntityId),
    defaultSiteSection: Type.Optional(EntityId),
    proxy: Type.Optional(nullable(SiteProxyOrigin)),
    adaptiveContent: Type.Optional(Type.Object({ enabled: b }, { additionalProperties: false })),
    defaultLevel: Type.Optional(Type.Literal('inherit')),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ListSitesQuery = Type.Object({
  space: Type.Optional(EntityId),
  title: Type.Optional(Type.String({ maxLength: 128 })),
  published: Type.Optional(b),
});

export const AddSectionBody = Type.Object(
  {
    spaceId: EntityId,
    title: Type.Optional(nullable(SectionTitle)),
    icon: Type.Optional(nullable(Icon)),
    draft: Type.Optional(b),
    siteSectionGroupId: Type.Optional(EntityId),
  },
  { additionalProperties: false },
);

export const UpdateSectionBody = Type.Object(
  {
    title: Type.Optional(SectionTitle),
    localizedTitle: Type.Optional(LocalizedString128),
    path: Type.Optional(SitePath),
    defaultSiteSpace: Type.Optional(EntityId),
    condition: Type.Optional(nullable(Expression)),
    icon: Type.Optional(nullable(Icon)),
    draft: Type.Optional(b),
    description: Type.Optional(nullable(SectionDescription)),
    localizedDescription: Type.Optional(LocalizedString256),
    siteSectionGroupId: Type.Optional(nullable(EntityId)),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** A move request: the item goes before and/or after siblings named by `pointer` (neither = at the end). */
const MoveBody = <P extends TSchema>(pointer: P) =>
  Type.Object(
    {
      position: Type.Optional(
        Type.Object({ before: Type.Optional(pointer), after: Type.Optional(pointer) }, { additionalProperties: false }),
      ),
    },
    { additionalProperties: false },
  );
export const SectionMoveBody = MoveBody(
  Type.Object({ type: Type.Literal('site-section'), siteSection: EntityId }, { additionalProperties: false }),
);
export const GroupMoveBody = MoveBody(
  Type.Object(
    { type: Type.Union([Type.Literal('site-section'), Type.Literal('site-section-group')]), id: EntityId },
    { additionalProperties: false },
  ),
);
export const SiteSpaceMoveBody = MoveBody(
  Type.Object({ type: Type.Literal('site-space'), siteSpace: EntityId }, { additionalProperties: false }),
);

export const AddGroupBody = Type.Object(
  {
    title: GroupTitle,
    icon: Type.Optional(nullable(Icon)),
    sections: Type.Optional(Type.Array(EntityId, { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export const UpdateGroupBody = Type.Object(
  { title: Type.Optional(GroupTitle), icon: Type.Optional(nullable(Icon)) },
  { additionalProperties: false, minProperties: 1 },
);
export const GroupAddSectionBody = Type.Object({ sectionId: EntityId }, { additionalProperties: false });

export const AddSiteSpaceBody = Type.Object(
  { spaceId: EntityId, sectionId: Type.Optional(EntityId) },
  { additionalProperties: false },
);
export const UpdateSiteSpaceBody = Type.Object(
  { path: Type.Optional(SitePath), condition: Type.Optional(nullable(Expression)), spaceId: Type.Optional(EntityId) },
  { additionalProperties: false, minProperties: 1 },
);
export const ListSiteSpacesQuery = Type.Object({ ...ShareKeyQuery, default: Type.Optional(b) });
