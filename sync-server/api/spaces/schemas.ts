import { Type } from 'typebox';
import { LANGUAGES } from '../../../shared/languages';
import { ContentPosition, DefaultLevel, EntityId, Url } from '../../http/schemas';

export { LANGUAGES };
const b = Type.Boolean();
const Language = Type.Union(LANGUAGES.map((l) => Type.Literal(l)));
const EditMode = Type.Union([Type.Literal('live'), Type.Literal('locked')]);
const Visibility = Type.Union(
  ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'].map((v) => Type.Literal(v)),
);
const Title = Type.String({ maxLength: 50 });
const Emoji = Type.String({ maxLength: 50, format: 'emoji' });

export const SpaceSchema = Type.Object({
  object: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  emoji: Type.String(),
  visibility: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  deletedAt: Type.Optional(Type.String({ format: 'date-time' })),
  editMode: Type.String(),
  mergeRules: Type.Object({ type: Type.String() }),
  urls: Type.Object({
    location: Url,
    app: Url,
    published: Type.Optional(Url),
    public: Type.Optional(Url),
    icon: Type.Optional(Url),
  }),
  organization: Type.String(),
  parent: Type.Optional(Type.String()),
  language: Type.Optional(Type.String()),
  translatedFrom: Type.Optional(
    Type.Object(
      { translation: Type.String(), space: Type.String(), language: Type.String() },
      { description: 'Folio: this space is the result of a translation of `space` (into `language`)' },
    ),
  ),
  revision: Type.String(),
  defaultLevel: DefaultLevel,
  comments: Type.Number(),
  changeRequests: Type.Number(),
  changeRequestsOpen: Type.Number(),
  changeRequestsDraft: Type.Number(),
  permissions: Type.Object({
    view: b,
    access: b,
    admin: b,
    viewInviteLinks: b,
    edit: b,
    triggerGitSync: b,
    comment: b,
    merge: b,
    review: b,
    installIntegration: b,
  }),
});

export const SpaceParams = Type.Object({ spaceId: EntityId });

export const CreateSpaceBody = Type.Object(
  {
    title: Type.Optional(Title),
    emoji: Type.Optional(Emoji),
    parent: Type.Optional(EntityId),
    language: Type.Optional(Language),
    editMode: Type.Optional(EditMode),
  },
  { additionalProperties: false },
);

export const UpdateSpaceBody = Type.Object(
  {
    title: Type.Optional(Title),
    emoji: Type.Optional(Emoji),
    editMode: Type.Optional(EditMode),
    defaultLevel: Type.Optional(DefaultLevel),
    language: Type.Optional(Language),
    visibility: Type.Optional(Visibility),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const SpaceMoveBody = Type.Object(
  { parent: Type.Optional(Type.Union([EntityId, Type.Null()])), position: Type.Optional(ContentPosition) },
  { additionalProperties: false, minProperties: 1 },
);

export const SpaceTransferBody = Type.Object({ organization: EntityId }, { additionalProperties: false });
