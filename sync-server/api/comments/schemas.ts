import { Type } from 'typebox';
import { PagingQuery } from '../../http/paging';
import { EntityId, Timestamp, Url, UserSchema } from '../../http/schemas';

/** Longest accepted comment markdown (a comment is not a page). */
export const MAX_COMMENT_MARKDOWN = 20_000;
/** Most reactions one update may add or remove. */
const MAX_REACTIONS = 20;

export const SpaceCommentsParams = Type.Object({ spaceId: EntityId });
export const SpaceCommentParams = Type.Object({ spaceId: EntityId, commentId: EntityId });
export const SpaceReplyParams = Type.Object({ spaceId: EntityId, commentId: EntityId, commentReplyId: EntityId });
export const CrCommentsParams = Type.Object({ spaceId: EntityId, changeRequestId: EntityId });
export const CrCommentParams = Type.Object({ spaceId: EntityId, changeRequestId: EntityId, commentId: EntityId });
export const CrReplyParams = Type.Object({
  spaceId: EntityId,
  changeRequestId: EntityId,
  commentId: EntityId,
  commentReplyId: EntityId,
});

const Format = Type.Optional(
  Type.Union([Type.Literal('markdown'), Type.Literal('document')], {
    description: 'Output format of bodies (default markdown)',
  }),
);

export const ListCommentsQuery = Type.Object({
  ...PagingQuery,
  order: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc', description: 'By posting time' }),
  ),
  status: Type.Optional(
    Type.Union([Type.Literal('all'), Type.Literal('open'), Type.Literal('resolved')], { default: 'all' }),
  ),
  format: Format,
  targetPage: Type.Optional(EntityId),
  authors: Type.Optional(Type.Array(EntityId, { maxItems: 100, description: 'Only comments posted by these users' })),
});
export const ListRepliesQuery = Type.Object({ ...PagingQuery, format: Format });
export const FormatQuery = Type.Object({ format: Format });

/**
 * GitBook's `Document` as a request body: `{markdown}` or `{document}` (a
 * JSON document). Its third form, `{}` (empty), is refused: a comment needs
 * a body. JSON documents are converted to markdown, which is what is stored.
 */
export const BodyInput = Type.Union([
  Type.Object({ markdown: Type.String({ maxLength: MAX_COMMENT_MARKDOWN }) }, { additionalProperties: false }),
  Type.Object(
    {
      document: Type.Object(
        {
          object: Type.Literal('document'),
          data: Type.Object({}, { additionalProperties: true }),
          nodes: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 1000 }),
        },
        { additionalProperties: true },
      ),
    },
    { additionalProperties: false },
  ),
]);

const Reactions = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), {
  maxItems: MAX_REACTIONS,
  description: 'Emoji',
});

export const PostCommentBody = Type.Object(
  {
    body: BodyInput,
    page: Type.Optional(EntityId),
    node: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    tableCell: Type.Optional(
      Type.Object(
        {
          record: Type.String({ minLength: 1, maxLength: 128 }),
          definition: Type.String({ minLength: 1, maxLength: 128 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export const UpdateCommentBody = Type.Object(
  {
    resolved: Type.Optional(Type.Boolean()),
    body: Type.Optional(BodyInput),
    addedReactions: Type.Optional(Reactions),
    removedReactions: Type.Optional(Reactions),
  },
  { additionalProperties: false },
);
export const PostReplyBody = Type.Object({ body: BodyInput }, { additionalProperties: false });
export const UpdateReplyBody = Type.Object(
  {
    body: Type.Optional(BodyInput),
    addedReactions: Type.Optional(Reactions),
    removedReactions: Type.Optional(Reactions),
  },
  { additionalProperties: false },
);

/** Output body: one of the two keys, per `format`. A plain object (not a union) so serialization needs no validator. */
const BodyOutput = Type.Object({
  markdown: Type.Optional(Type.String()),
  document: Type.Optional(Type.Object({}, { additionalProperties: true })),
});

const PostFields = {
  id: Type.String(),
  postedBy: UserSchema,
  postedAt: Timestamp,
  editedAt: Type.Optional(Timestamp),
  reactions: Type.Array(
    Type.Object({
      emoji: Type.String(),
      count: Type.Number(),
      users: Type.Array(Type.Object({ user: UserSchema, reactedAt: Timestamp })),
    }),
  ),
  body: BodyOutput,
  urls: Type.Object({ location: Url }),
  permissions: Type.Object({
    view: Type.Boolean(),
    edit: Type.Boolean(),
    reply: Type.Boolean(),
    delete: Type.Boolean(),
  }),
};

export const CommentSchema = Type.Object({
  object: Type.Literal('comment'),
  ...PostFields,
  replies: Type.Number(),
  repliers: Type.Array(Type.Object({ updatedAt: Timestamp, count: Type.Integer(), user: UserSchema })),
  target: Type.Object({
    space: Type.String(),
    revision: Type.String(),
    changeRequest: Type.Optional(Type.String()),
    review: Type.Optional(Type.String()),
    page: Type.Optional(
      Type.Object({
        id: Type.String(),
        title: Type.String(),
        emoji: Type.Optional(Type.String()),
        icon: Type.Optional(Type.String()),
        createdAt: Type.Optional(Type.String()),
        updatedAt: Type.Optional(Type.String()),
        path: Type.String(),
        outdated: Type.Boolean(),
      }),
    ),
    node: Type.Optional(Type.Object({ id: Type.String() })),
    tableCell: Type.Optional(Type.Object({ record: Type.String(), definition: Type.String() })),
  }),
  status: Type.Unsafe<'open' | 'resolved'>({ type: 'string', enum: ['open', 'resolved'] }),
  resolvedAt: Type.Optional(Timestamp),
  resolvedBy: Type.Optional(UserSchema),
});

export const CommentReplySchema = Type.Object({ object: Type.Literal('comment-reply'), ...PostFields });
