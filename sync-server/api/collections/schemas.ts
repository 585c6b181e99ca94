import { Type } from 'typebox';
import { ContentPosition, DefaultLevel, EntityId, Url } from '../../http/schemas';

const b = Type.Boolean();
const Title = Type.String({ maxLength: 50 });

export const CollectionSchema = Type.Object({
  object: Type.Literal('collection'),
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  organization: Type.String(),
  parent: Type.Optional(Type.String()),
  defaultLevel: DefaultLevel,
  urls: Type.Object({ location: Url, app: Url }),
  permissions: Type.Object({ view: b, admin: b, viewInviteLinks: b, create: b }),
});

export const CollectionParams = Type.Object({ collectionId: EntityId });

export const CreateCollectionBody = Type.Object(
  { title: Type.Optional(Title), parent: Type.Optional(EntityId) },
  { additionalProperties: false },
);

export const UpdateCollectionBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Type.String({ maxLength: 100 })),
    defaultLevel: Type.Optional(DefaultLevel),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const MoveBody = Type.Object(
  { parent: Type.Optional(Type.Union([EntityId, Type.Null()])), position: Type.Optional(ContentPosition) },
  { additionalProperties: false, minProperties: 1 },
);

export const TransferBody = Type.Object({ organization: EntityId }, { additionalProperties: false });
