import { Type, type Static } from 'typebox';
import { EntityId } from '../../http/schemas';
import { TEMPLATE_IDS } from '../../templates/catalogue';

/** GitBook's ContentRef kinds: the envelope of a reference; its fields are checked per kind (content-refs.ts). */
const CONTENT_REF_KINDS = [
  'file',
  'url',
  'page',
  'anchor',
  'user',
  'collection',
  'space',
  'reusable-content',
  'tag',
  'openapi',
] as const;

const ContentRefEnvelope = Type.Object(
  { kind: Type.Enum([...CONTENT_REF_KINDS]) },
  {
    additionalProperties: true,
    description:
      'A ContentRef (GitBook’s relative reference). Each template says which names it takes and of which kinds (listTemplates).',
  },
);

/** GitBook's ApplySpaceTemplate with `changeRequestId`; `id` is one of Folio's built-in templates. */
export const ApplyTemplateBody = Type.Object({
  id: Type.Enum(TEMPLATE_IDS, { description: 'The template to apply (listTemplates lists them)' }),
  params: Type.Optional(
    Type.Object(
      {
        contentRefs: Type.Optional(
          Type.Record(Type.String({ pattern: '^[a-zA-Z0-9_-]{1,64}$' }), ContentRefEnvelope, { maxProperties: 20 }),
        ),
      },
      { description: 'Parameters for a space template' },
    ),
  ),
  changeRequestId: Type.Optional(EntityId),
});
export type ApplyTemplateBody = Static<typeof ApplyTemplateBody>;

const PageTitle = { title: Type.String(), emoji: Type.Optional(Type.String()) };

export const TemplateSchema = Type.Object({
  object: Type.Literal('space-template'),
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  emoji: Type.String(),
  /** The page tree, two levels deep (every built-in template is). */
  pages: Type.Array(Type.Object({ ...PageTitle, pages: Type.Array(Type.Object(PageTitle)) })),
  /** The names `params.contentRefs` may set. */
  contentRefs: Type.Array(
    Type.Object({
      name: Type.String(),
      kinds: Type.Array(Type.String()),
      description: Type.String(),
    }),
  ),
});

export const TemplateList = Type.Object({ items: Type.Array(TemplateSchema) });
