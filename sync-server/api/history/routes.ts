import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { EntityId, Timestamp, Url, UserSchema } from '../../http/schemas';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import { ChangeRequestSchema, ChangesQuery, SemanticChange } from '../change-requests/schemas';
import { listRevisions, revisionSemanticChanges } from './service';

const SpaceParams = Type.Object({ spaceId: EntityId });
const RevisionParams = Type.Object({ spaceId: EntityId, revisionId: EntityId });

const HistoryItem = Type.Object({
  object: Type.Literal('revision-summary'),
  id: Type.String(),
  type: Type.String({ description: 'edits (live editing), merge (a change request), update, …' }),
  parents: Type.Array(Type.String()),
  createdAt: Timestamp,
  author: Type.Optional(UserSchema),
  pages: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      path: Type.Optional(Type.String()),
      change: Type.Union([Type.Literal('page_created'), Type.Literal('page_edited'), Type.Literal('page_deleted')]),
    }),
    { description: 'Pages this revision created, edited (content, title, place) or deleted, by title' },
  ),
  urls: Type.Object({ location: Url }),
});

const RevisionSemanticChanges = Type.Object({
  mergedFrom: Type.Optional(ChangeRequestSchema),
  changes: Type.Array(SemanticChange),
  more: Type.Optional(Type.Number()),
});

/**
 * The history of a space: the list of its revisions (a Folio extension:
 * GitBook has no such operation) and GitBook's semantic changes of one
 * revision against its parent. Readers of the space may see both.
 */
export const historyRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/spaces/:spaceId/revisions',
      {
        schema: {
          operationId: 'listSpaceRevisions',
          summary: 'List the revisions of a space, newest first (Folio extension)',
          tags: ['Revisions'],
          params: SpaceParams,
          querystring: Type.Object({
            ...PagingQuery,
            pageId: Type.Optional(EntityId),
          }),
          response: { 200: ListOf(HistoryItem) },
        },
      },
      async (req) => listRevisions(ctx, req.principal, req.params.spaceId, pageRequest(req.query), req.query.pageId),
    );
    app.get(
      '/spaces/:spaceId/revisions/:revisionId/changes',
      {
        schema: {
          operationId: 'getRevisionSemanticChanges',
          tags: ['Revisions'],
          params: RevisionParams,
          querystring: Type.Object({
            ...ChangesQuery.properties,
            metadata: Type.Optional(Type.Boolean()),
            computed: Type.Optional(Type.Boolean()),
          }),
          response: { 200: RevisionSemanticChanges },
        },
      },
      async (req) =>
        revisionSemanticChanges(ctx, req.principal, req.params.spaceId, req.params.revisionId, req.query.limit ?? 10),
    );
  };
