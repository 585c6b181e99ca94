import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { EntityId } from '../../http/schemas';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import { notFound } from '../../http/errors';
import { semanticChanges } from './changes';
import { changeRequestContentRoutes } from '../change-request-content/routes';
import {
  getReview,
  listRequestedReviewers,
  listReviews,
  removeRequestedReviewer,
  requestReviewers,
  submitReview,
} from './reviews';
import {
  ChangeRequestSchema,
  ChangesQuery,
  ChangesSchema,
  CreateBody,
  CrParams,
  ListQuery,
  MergeResult,
  SpaceParams,
  UpdateBody,
  UpdateResult,
} from './schemas';
import {
  createChangeRequest,
  listChangeRequests,
  mergeChangeRequest,
  presentFull,
  requireChangeRequest,
  updateChangeRequest,
  updateFromMain,
} from './service';

const tags = ['Change requests'];
const reviewTags = ['Change request review'];
const Doc = Type.Object({}, { additionalProperties: true, description: 'Document' });
const ReviewSchema = Type.Object({
  object: Type.Literal('change-request-review'),
  id: Type.String(),
  revision: Type.String(),
  reviewer: Type.Object({}, { additionalProperties: true }),
  status: Type.String(),
  outdated: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
  urls: Type.Object({ location: Type.String() }),
});
const RequestedReviewer = Type.Object({
  object: Type.Literal('change-request-requested-reviewer'),
  revision: Type.String(),
  requestedBy: Type.Object({}, { additionalProperties: true }),
  createdAt: Type.String(),
  kind: Type.Literal('user'),
  user: Type.Object({}, { additionalProperties: true }),
});
const ReviewParams = Type.Object({ spaceId: EntityId, changeRequestId: EntityId, reviewId: EntityId });
const ReviewerParams = Type.Object({ spaceId: EntityId, changeRequestId: EntityId, userId: EntityId });

/**
 * Change requests of a space: list/create/get/patch, merge and
 * update-from-main (CRDT merges of the fork and the space documents), the
 * semantic changes, reviews and requested reviewers. Content reads of a
 * change request live with the space content routes (api/content).
 */
export const changeRequestRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { revisions } = ctx;
    const base = '/spaces/:spaceId/change-requests';
    await app.register(changeRequestContentRoutes(ctx)); // POST …/content (updateChangeRequestContent)

    app.get(
      base,
      {
        schema: {
          operationId: 'listChangeRequestsForSpace',
          tags,
          params: SpaceParams,
          querystring: ListQuery,
          response: { 200: ListOf(ChangeRequestSchema) },
        },
      },
      async (req) => listChangeRequests(ctx, req.principal, req.params.spaceId, req.query, pageRequest(req.query)),
    );
    app.post(
      base,
      {
        schema: {
          operationId: 'createChangeRequest',
          tags,
          params: SpaceParams,
          body: CreateBody,
          response: { 201: ChangeRequestSchema },
        },
      },
      async (req, reply) => {
        const cr = await createChangeRequest(ctx, req.principal, req.params.spaceId, req.body ?? {});
        return reply.status(201).header('location', cr.urls.location).send(cr);
      },
    );
    app.get(
      `${base}/:changeRequestId`,
      {
        schema: { operationId: 'getChangeRequestById', tags, params: CrParams, response: { 200: ChangeRequestSchema } },
      },
      async (req) => {
        const { actor, cr } = await requireChangeRequest(
          ctx,
          req.principal,
          req.params.spaceId,
          req.params.changeRequestId,
        );
        return presentFull(ctx, actor, cr);
      },
    );
    app.patch(
      `${base}/:changeRequestId`,
      {
        schema: {
          operationId: 'updateChangeRequestById',
          tags,
          params: CrParams,
          body: UpdateBody,
          response: { 200: ChangeRequestSchema },
        },
      },
      async (req) => updateChangeRequest(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, req.body),
    );
    app.post(
      `${base}/:changeRequestId/merge`,
      { schema: { operationId: 'mergeChangeRequest', tags, params: CrParams, response: { 200: MergeResult } } },
      async (req) => mergeChangeRequest(ctx, req.principal, req.params.spaceId, req.params.changeRequestId),
    );
    app.post(
      `${base}/:changeRequestId/update`,
      { schema: { operationId: 'updateChangeRequest', tags, params: CrParams, response: { 200: UpdateResult } } },
      async (req) => updateFromMain(ctx, req.principal, req.params.spaceId, req.params.changeRequestId),
    );
    app.get(
      `${base}/:changeRequestId/changes`,
      {
        schema: {
          operationId: 'getChangeRequestChanges',
          tags: reviewTags,
          params: CrParams,
          querystring: ChangesQuery,
          response: { 200: ChangesSchema },
        },
      },
      async (req) => {
        const { cr } = await requireChangeRequest(ctx, req.principal, req.params.spaceId, req.params.changeRequestId);
        const [from, to] = await Promise.all([
          revisions.get(cr.revision_merged_ancestor ?? cr.revision_initial),
          revisions.get(cr.revision),
        ]);
        if (!from || !to) throw notFound('Revision');
        const all = semanticChanges(from, to);
        const limit = req.query.limit ?? 10;
        return all.length > limit ? { changes: all.slice(0, limit), more: all.length - limit } : { changes: all };
      },
    );

    app.get(
      `${base}/:changeRequestId/reviews`,
      {
        schema: {
          operationId: 'getReviewsByChangeRequestId',
          tags: reviewTags,
          params: CrParams,
          querystring: Type.Object({
            ...PagingQuery,
            outdated: Type.Optional(Type.Boolean()),
            format: Type.Optional(Type.Union([Type.Literal('document'), Type.Literal('markdown')])),
          }),
          response: { 200: ListOf(ReviewSchema) },
        },
      },
      async (req) =>
        listReviews(
          ctx,
          req.principal,
          req.params.spaceId,
          req.params.changeRequestId,
          req.query.outdated,
          pageRequest(req.query),
        ),
    );
    app.post(
      `${base}/:changeRequestId/reviews`,
      {
        schema: {
          operationId: 'submitChangeRequestReview',
          tags: reviewTags,
          params: CrParams,
          body: Type.Object(
            {
              status: Type.Union([Type.Literal('approved'), Type.Literal('changes-requested')]),
              comment: Type.Optional(Doc),
            },
            { additionalProperties: false },
          ),
          response: { 201: ReviewSchema },
        },
      },
      async (req, reply) => {
        const review = await submitReview(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, req.body);
        return reply.status(201).header('location', review.urls.location).send(review);
      },
    );
    app.get(
      `${base}/:changeRequestId/reviews/:reviewId`,
      {
        schema: {
          operationId: 'getChangeRequestReviewById',
          tags: reviewTags,
          params: ReviewParams,
          querystring: Type.Object({
            format: Type.Optional(Type.Union([Type.Literal('document'), Type.Literal('markdown')])),
          }),
          response: { 200: ReviewSchema },
        },
      },
      async (req) => getReview(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, req.params.reviewId),
    );

    app.get(
      `${base}/:changeRequestId/requested-reviewers`,
      {
        schema: {
          operationId: 'getRequestedReviewersByChangeRequestId',
          tags: reviewTags,
          params: CrParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: ListOf(RequestedReviewer) },
        },
      },
      async (req) =>
        listRequestedReviewers(
          ctx,
          req.principal,
          req.params.spaceId,
          req.params.changeRequestId,
          pageRequest(req.query),
        ),
    );
    app.post(
      `${base}/:changeRequestId/requested-reviewers`,
      {
        schema: {
          operationId: 'requestReviewersForChangeRequest',
          tags: reviewTags,
          params: CrParams,
          body: Type.Object(
            {
              users: Type.Array(EntityId, { maxItems: 100 }),
              subject: Type.Optional(Type.String({ maxLength: 100 })),
              description: Type.Optional(Doc),
            },
            { additionalProperties: false },
          ),
          response: { 200: Type.Object({ users: Type.Array(RequestedReviewer) }) },
        },
      },
      async (req) => requestReviewers(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, req.body),
    );
    app.delete(
      `${base}/:changeRequestId/requested-reviewers/:userId`,
      {
        schema: {
          operationId: 'removeRequestedReviewerFromChangeRequest',
          tags: reviewTags,
          params: ReviewerParams,
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        await removeRequestedReviewer(
          ctx,
          req.principal,
          req.params.spaceId,
          req.params.changeRequestId,
          req.params.userId,
        );
        return reply.status(204).send(null);
      },
    );
  };
