import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
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
import { discussionScope, type ScopeIntent } from './scope';
import * as comments from './service';

const tags = ['Comments'];
const NoContent = { 204: Type.Null({ description: 'Deleted, or did not exist' }) };

/** The two owners of discussions: the same ten operations, under each prefix, with GitBook's operation ids. */
const OWNERS = [
  {
    prefix: '/spaces/:spaceId/comments',
    suffix: 'InSpace',
    params: { list: SpaceCommentsParams, comment: SpaceCommentParams, reply: SpaceReplyParams },
  },
  {
    prefix: '/spaces/:spaceId/change-requests/:changeRequestId/comments',
    suffix: 'InChangeRequest',
    params: { list: CrCommentsParams, comment: CrCommentParams, reply: CrReplyParams },
  },
] as const;

type OwnerParams = { spaceId: string; changeRequestId?: string };

/**
 * Comments and replies on spaces (`/spaces/:spaceId/comments…`) and on
 * change requests (`/spaces/:spaceId/change-requests/:changeRequestId/comments…`):
 * one set of handlers over a DiscussionScope, registered under both prefixes.
 */
export const commentRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const scopeOf = (req: { principal: Principal; params: OwnerParams }, intent: ScopeIntent) =>
      discussionScope(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, intent);

    for (const owner of OWNERS) {
      const { prefix, suffix } = owner;
      const op = (name: string) => `${name}${suffix}`;
      app.get(
        prefix,
        {
          schema: {
            operationId: op('listComments'),
            tags,
            params: owner.params.list,
            querystring: ListCommentsQuery,
            response: { 200: ListOf(CommentSchema) },
          },
        },
        async (req) =>
          comments.listComments(ctx, req.principal, await scopeOf(req, 'read'), req.query, pageRequest(req.query)),
      );
      app.post(
        prefix,
        {
          schema: {
            operationId: op('postComment'),
            tags,
            params: owner.params.list,
            body: PostCommentBody,
            response: { 200: CommentSchema },
          },
        },
        async (req) => comments.postComment(ctx, req.principal, await scopeOf(req, 'write'), req.body),
      );
      app.get(
        `${prefix}/:commentId`,
        {
          schema: {
            operationId: op('getComment'),
            tags,
            params: owner.params.comment,
            querystring: FormatQuery,
            response: { 200: CommentSchema },
          },
        },
        async (req) =>
          comments.getComment(ctx, req.principal, await scopeOf(req, 'read'), req.params.commentId, req.query.format),
      );
      app.put(
        `${prefix}/:commentId`,
        {
          schema: {
            operationId: op('updateComment'),
            tags,
            params: owner.params.comment,
            body: UpdateCommentBody,
            response: { 200: CommentSchema },
          },
        },
        async (req) =>
          comments.updateComment(ctx, req.principal, await scopeOf(req, 'write'), req.params.commentId, req.body),
      );
      app.delete(
        `${prefix}/:commentId`,
        { schema: { operationId: op('deleteComment'), tags, params: owner.params.comment, response: NoContent } },
        async (req, reply) => {
          const scope = await comments.scopeForDelete(() => scopeOf(req, 'write'));
          if (scope) await comments.deleteComment(ctx, req.principal, scope, req.params.commentId);
          return reply.status(204).send(null);
        },
      );
      app.get(
        `${prefix}/:commentId/replies`,
        {
          schema: {
            operationId: op('listCommentReplies'),
            tags,
            params: owner.params.comment,
            querystring: ListRepliesQuery,
            response: { 200: ListOf(CommentReplySchema) },
          },
        },
        async (req) =>
          comments.listReplies(
            ctx,
            req.principal,
            await scopeOf(req, 'read'),
            req.params.commentId,
            req.query.format,
            pageRequest(req.query),
          ),
      );
      app.post(
        `${prefix}/:commentId/replies`,
        {
          schema: {
            operationId: op('postCommentReply'),
            tags,
            params: owner.params.comment,
            body: PostReplyBody,
            response: { 200: CommentReplySchema },
          },
        },
        async (req) =>
          comments.postReply(ctx, req.principal, await scopeOf(req, 'write'), req.params.commentId, req.body.body),
      );
      app.get(
        `${prefix}/:commentId/replies/:commentReplyId`,
        {
          schema: {
            operationId: op('getCommentReply'),
            tags,
            params: owner.params.reply,
            querystring: FormatQuery,
            response: { 200: CommentReplySchema },
          },
        },
        async (req) =>
          comments.getReply(
            ctx,
            req.principal,
            await scopeOf(req, 'read'),
            req.params.commentId,
            req.params.commentReplyId,
            req.query.format,
          ),
      );
      app.put(
        `${prefix}/:commentId/replies/:commentReplyId`,
        {
          schema: {
            operationId: op('updateCommentReply'),
            tags,
            params: owner.params.reply,
            body: UpdateReplyBody,
            response: { 200: CommentReplySchema },
          },
        },
        async (req) =>
          comments.updateReply(
            ctx,
            req.principal,
            await scopeOf(req, 'write'),
            req.params.commentId,
            req.params.commentReplyId,
            req.body,
          ),
      );
      app.delete(
        `${prefix}/:commentId/replies/:commentReplyId`,
        { schema: { operationId: op('deleteCommentReply'), tags, params: owner.params.reply, response: NoContent } },
        async (req, reply) => {
          const scope = await comments.scopeForDelete(() => scopeOf(req, 'write'));
          if (scope)
            await comments.deleteReply(ctx, req.principal, scope, req.params.commentId, req.params.commentReplyId);
          return reply.status(204).send(null);
        },
      );
    }
  };
