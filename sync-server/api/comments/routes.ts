import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, pageRequest } from '../../http/paging';
import {
  CommentReplySchema,
  CommentSchema,
  CrCommentParams,
  CrCommentsParams,
  CrReplyParams,
  FormatQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PostCommentBody,
  PostReplyBody,
  SpaceCommentParams,
  SpaceCommentsParams,
  SpaceReplyParams,
  UpdateCommentBody,
  UpdateReplyBody,
} from './schemas';
import { changeRequestScope } from './cr-scope';
import { spaceScope, type ChangeRequestScopeLookup } from './scope';
import * as comments from './service';

const tags = ['Comments'];
const NoContent = { 204: Type.Null({ description: 'Deleted, or did not exist' }) };

/** Options of commentRoutes. */
export interface CommentRoutesOptions {
  /** Resolves a change request's discussion (default: changeRequestScope); null leaves the change-request variants out. */
  changeRequests?: ChangeRequestScopeLookup | null;
}

/**
 * Comments and replies on spaces (`/spaces/:spaceId/comments…`) and, given a
 * change-request lookup, on change requests
 * (`/spaces/:spaceId/change-requests/:changeRequestId/comments…`). Both use
 * the same operations on a DiscussionScope.
 */
export const commentRoutes =
  (ctx: AppContext, options: CommentRoutesOptions = {}): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/spaces/:spaceId/comments',
      {
        schema: {
          operationId: 'listCommentsInSpace',
          tags,
          params: SpaceCommentsParams,
          querystring: ListCommentsQuery,
          response: { 200: ListOf(CommentSchema) },
        },
      },
      async (req) =>
        comments.listComments(
          ctx,
          req.principal,
          await spaceScope(ctx, req.principal, req.params.spaceId, 'read'),
          req.query,
          pageRequest(req.query),
        ),
    );
    app.post(
      '/spaces/:spaceId/comments',
      {
        schema: {
          operationId: 'postCommentInSpace',
          tags,
          params: SpaceCommentsParams,
          body: PostCommentBody,
          response: { 200: CommentSchema },
        },
      },
      async (req) =>
        comments.postComment(
          ctx,
          req.principal,
          await spaceScope(ctx, req.principal, req.params.spaceId, 'write'),
          req.body,
        ),
    );
    app.get(
      '/spaces/:spaceId/comments/:commentId',
      {
        schema: {
          operationId: 'getCommentInSpace',
          tags,
          params: SpaceCommentParams,
          querystring: FormatQuery,
          response: { 200: CommentSchema },
        },
      },
      async (req) =>
        comments.getComment(
          ctx,
          req.principal,
          await spaceScope(ctx, req.principal, req.params.spaceId, 'read'),
          req.params.commentId,
          req.query.format,
        ),
    );
    app.put(
      '/spaces/:spaceId/comments/:commentId',
      {
        schema: {
          operationId: 'updateCommentInSpace',
          tags,
          params: SpaceCommentParams,
          body: UpdateCommentBody,
          response: { 200: CommentSchema },
        },
      },
      async (req) =>
        comments.updateComment(
          ctx,
          req.principal,
          await spaceScope(ctx, req.principal, req.params.spaceId, 'write'),
          req.params.commentId,
          req.body,
        ),
    );
    app.delete(
      '/spaces/:spaceId/comments/:commentId',
      { schema: { operationId: 'deleteCommentInSpace', tags, params: SpaceCommentParams, response: NoContent } },
      async (req, reply) => {
        const scope = await comments.scopeForDelete(() => spaceScope(ctx, req.principal, req.params.spaceId, 'write'));
        if (scope) await comments.deleteComment(ctx, req.principal, scope, req.params.commentId);
        return reply.status(204).send(null);
      },
    );
    app.get(
      '/spaces/:spaceId/comments/:commentId/replies',
      {
        schema: {
          operationId: 'listCommentRepliesInSpace',
          tags,
          params: SpaceCommentParams,
          querystring: ListRepliesQuery,
          response: { 200: ListOf(CommentReplySchema) },
        },
      },
      async (req) =>
        comments.listReplies(
          ctx,
          req.principal,
          await spaceScope(ctx, req.principal, req.params.spaceId, 'read'),
          req.params.commentId,
          req.query.format,
          pageRequest(req.query),
        ),
    );
    app.post(
      '/spaces/:spaceId/comments/:commentId/replies',
      {
        schema: {
          operationId: 'postCommentReplyInSpace',
          tags,
          params: SpaceCommentParams,
          body: PostReplyBody,
          response: { 200: CommentReplySchema },
        },
      },
      async (req) =>
        comments.postReply(
          ctx,
          req.principal,
          await spaceScope(ctx, req.principal, req.params.spaceId, 'write'),
          req.params.commentId,
          req.body.body,
        ),
    );
    app.get(
      '/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
      {
        schema: {
          operationId: 'getCommentReplyInSpace',
          tags,
          params: SpaceReplyParams,
          querystring: FormatQuery,
          response: { 200: CommentReplySchema },
        },
      },
      async (req) =>
        comments.getReply(
          ctx,
          req.principal,
          await spaceScope(ctx, req.principal, req.params.spaceId, 'read'),
          req.params.commentId,
          req.params.commentReplyId,
          req.query.format,
        ),
    );
    app.put(
      '/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
      {
        schema: {
          operationId: 'updateCommentReplyInSpace',
          tags,
          params: SpaceReplyParams,
          body: UpdateReplyBody,
          response: { 200: CommentReplySchema },
        },
      },
      async (req) =>
        comments.updateReply(
          ctx,
          req.principal,
          await spaceScope(ctx, req.principal, req.params.spaceId, 'write'),
          req.params.commentId,
          req.params.commentReplyId,
          req.body,
        ),
    );
    app.delete(
      '/spaces/:spaceId/comments/:commentId/replies/:commentReplyId',
      { schema: { operationId: 'deleteCommentReplyInSpace', tags, params: SpaceReplyParams, response: NoContent } },
      async (req, reply) => {
        const scope = await comments.scopeForDelete(() => spaceScope(ctx, req.principal, req.params.spaceId, 'write'));
        if (scope)
          await comments.deleteReply(ctx, req.principal, scope, req.params.commentId, req.params.commentReplyId);
        return reply.status(204).send(null);
      },
    );

    const crScope = options.changeRequests === undefined ? changeRequestScope : options.changeRequests;
    if (crScope) {
      const cr = '/spaces/:spaceId/change-requests/:changeRequestId/comments';
      app.get(
        cr,
        {
          schema: {
            operationId: 'listCommentsInChangeRequest',
            tags,
            params: CrCommentsParams,
            querystring: ListCommentsQuery,
            response: { 200: ListOf(CommentSchema) },
          },
        },
        async (req) =>
          comments.listComments(
            ctx,
            req.principal,
            await crScope(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, 'read'),
            req.query,
            pageRequest(req.query),
          ),
      );
      app.post(
        cr,
        {
          schema: {
            operationId: 'postCommentInChangeRequest',
            tags,
            params: CrCommentsParams,
            body: PostCommentBody,
            response: { 200: CommentSchema },
          },
        },
        async (req) =>
          comments.postComment(
            ctx,
            req.principal,
            await crScope(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, 'write'),
            req.body,
          ),
      );
      app.get(
        `${cr}/:commentId`,
        {
          schema: {
            operationId: 'getCommentInChangeRequest',
            tags,
            params: CrCommentParams,
            querystring: FormatQuery,
            response: { 200: CommentSchema },
          },
        },
        async (req) =>
          comments.getComment(
            ctx,
            req.principal,
            await crScope(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, 'read'),
            req.params.commentId,
            req.query.format,
          ),
      );
      app.put(
        `${cr}/:commentId`,
        {
          schema: {
            operationId: 'updateCommentInChangeRequest',
            tags,
            params: CrCommentParams,
            body: UpdateCommentBody,
            response: { 200: CommentSchema },
          },
        },
        async (req) =>
          comments.updateComment(
            ctx,
            req.principal,
            await crScope(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, 'write'),
            req.params.commentId,
            req.body,
          ),
      );
      app.delete(
        `${cr}/:commentId`,
        { schema: { operationId: 'deleteCommentInChangeRequest', tags, params: CrCommentParams, response: NoContent } },
        async (req, reply) => {
          const scope = await comments.scopeForDelete(() =>
            crScope(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, 'write'),
          );
          if (scope) await comments.deleteComment(ctx, req.principal, scope, req.params.commentId);
          return reply.status(204).send(null);
        },
      );
      app.get(
        `${cr}/:commentId/replies`,
        {
          schema: {
            operationId: 'listCommentRepliesInChangeRequest',
            tags,
            params: CrCommentParams,
            querystring: ListRepliesQuery,
            response: { 200: ListOf(CommentReplySchema) },
          },
        },
        async (req) =>
          comments.listReplies(
            ctx,
            req.principal,
            await crScope(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, 'read'),
            req.params.commentId,
            req.query.format,
            pageRequest(req.query),
          ),
      );
      app.post(
        `${cr}/:commentId/replies`,
        {
          schema: {
            operationId: 'postCommentReplyInChangeRequest',
            tags,
            params: CrCommentParams,
            querystring: FormatQuery,
            body: PostReplyBody,
            response: { 200: CommentReplySchema },
          },
        },
        async (req) =>
          comments.postReply(
            ctx,
            req.principal,
            await crScope(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, 'write'),
            req.params.commentId,
            req.body.body,
          ),
      );
      app.get(
        `${cr}/:commentId/replies/:commentReplyId`,
        {
          schema: {
            operationId: 'getCommentReplyInChangeRequest',
            tags,
            params: CrReplyParams,
            querystring: FormatQuery,
            response: { 200: CommentReplySchema },
          },
        },
        async (req) =>
          comments.getReply(
            ctx,
            req.principal,
            await crScope(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, 'read'),
            req.params.commentId,
            req.params.commentReplyId,
            req.query.format,
          ),
      );
      app.put(
        `${cr}/:commentId/replies/:commentReplyId`,
        {
          schema: {
            operationId: 'updateCommentReplyInChangeRequest',
            tags,
            params: CrReplyParams,
            body: UpdateReplyBody,
            response: { 200: CommentReplySchema },
          },
        },
        async (req) =>
          comments.updateReply(
            ctx,
            req.principal,
            await crScope(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, 'write'),
            req.params.commentId,
            req.params.commentReplyId,
            req.body,
          ),
      );
      app.delete(
        `${cr}/:commentId/replies/:commentReplyId`,
        {
          schema: {
            operationId: 'deleteCommentReplyInChangeRequest',
            tags,
            params: CrReplyParams,
            response: NoContent,
          },
        },
        async (req, reply) => {
          const scope = await comments.scopeForDelete(() =>
            crScope(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, 'write'),
          );
          if (scope)
            await comments.deleteReply(ctx, req.principal, scope, req.params.commentId, req.params.commentReplyId);
          return reply.status(204).send(null);
        },
      );
    }
  };
