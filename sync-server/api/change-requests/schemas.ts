import { Type } from 'typebox';
import { EntityId, Timestamp, Url, UserSchema } from '../../http/schemas';
import { PagingQuery } from '../../http/paging';

/** TypeBox mirrors of GitBook's ChangeRequest schemas (responses are serialized with them: keep them complete). */

export const CrStatus = Type.Union([
  Type.Literal('draft'),
  Type.Literal('open'),
  Type.Literal('archived'),
  Type.Literal('merged'),
]);

export const ChangeRequestSchema = Type.Object({
  object: Type.Literal('change-request'),
  id: Type.String(),
  number: Type.Number(),
  status: CrStatus,
  subject: Type.String(),
  createdBy: UserSchema,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  mergedBy: Type.Optional(UserSchema),
  mergedAt: Type.Optional(Timestamp),
  space: Type.String(),
  revision: Type.String(),
  revisionInitial: Type.String(),
  revisionMergedAncestor: Type.Optional(Type.String()),
  revisionMerged: Type.Optional(Type.String()),
  agentTaskId: Type.Optional(
    Type.String({ description: 'Agent task this change request implements (stored, not run)' }),
  ),
  comments: Type.Number(),
  outdated: Type.Boolean(),
  urls: Type.Object({ app: Url, location: Url }),
});

/** `changeRequestId` is the id or the number of the change request in the space. */
export const CrParams = Type.Object({ spaceId: EntityId, changeRequestId: EntityId });
export const SpaceParams = Type.Object({ spaceId: EntityId });

export const ListQuery = Type.Object({
  ...PagingQuery,
  status: Type.Optional(CrStatus),
  creator: Type.Optional(Type.String({ maxLength: 64, description: 'Only change requests created by this user id' })),
  contributor: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'Only change requests this user id contributed to (created, edited or merged)',
    }),
  ),
  requestedReviewer: Type.Optional(
    Type.String({ maxLength: 64, description: 'Only change requests where this user id was requested as a reviewer' }),
  ),
  orderBy: Type.Optional(Type.Union([Type.Literal('updatedAt'), Type.Literal('createdAt')])),
});

export const CreateBody = Type.Object(
  {
    subject: Type.Optional(Type.String({ maxLength: 100 })),
    agentTaskId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

export const UpdateBody = Type.Object(
  {
    subject: Type.Optional(Type.String({ maxLength: 100 })),
    status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('open'), Type.Literal('archived')])),
  },
  { additionalProperties: false },
);

export const MergeResult = Type.Object({ revision: Type.String(), result: Type.Literal('merge') });
export const UpdateResult = Type.Object({ revision: Type.String(), result: Type.Literal('update') });

const ChangedPage = Type.Object({
  id: Type.String(),
  type: Type.String(),
  title: Type.String(),
  path: Type.Optional(Type.String()),
});
const AttrChange = Type.Object({ before: Type.Optional(Type.String()), after: Type.Optional(Type.String()) });
export const SemanticChange = Type.Object({
  type: Type.String(),
  page: ChangedPage,
  attributes: Type.Optional(Type.Record(Type.String(), AttrChange)),
  parent: Type.Optional(Type.Object({ before: Type.Optional(ChangedPage), after: Type.Optional(ChangedPage) })),
});
export const ChangesQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
});
export const ChangesSchema = Type.Object({ changes: Type.Array(SemanticChange), more: Type.Optional(Type.Number()) });
