import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import { EntityId, OrgParams } from '../../http/schemas';
import { CollectionParams } from '../collections/schemas';
import {
  CreateSpaceBody,
  SpaceMoveBody,
  SpaceParams,
  SpaceSchema,
  SpaceTransferBody,
  UpdateSpaceBody,
} from './schemas';
import * as spaces from './service';
import * as lifecycle from './lifecycle';

const tags = ['Spaces'];

/**
 * Sends cached JSON bytes as they are: Fastify writes a Buffer without the
 * route's serializer and without encoding a string again (the response
 * schema still documents the shape).
 */
const sendJsonBytes = (reply: FastifyReply, bytes: Buffer) => reply.type('application/json; charset=utf-8').send(bytes);

export const spaceRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/spaces',
      {
        schema: {
          operationId: 'listSpacesInOrganizationById',
          tags,
          params: OrgParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: ListOf(SpaceSchema) },
        },
      },
      async (req, reply) =>
        sendJsonBytes(
          reply,
          await spaces.listSpacesInOrganizationJson(
            ctx,
            req.principal,
            req.params.organizationId,
            pageRequest(req.query),
          ),
        ),
    );

    app.post(
      '/orgs/:organizationId/spaces',
      {
        schema: {
          operationId: 'createSpace',
          tags,
          params: OrgParams,
          body: CreateSpaceBody,
          response: { 201: SpaceSchema },
        },
      },
      async (req, reply) => {
        const space = await spaces.createSpace(ctx, req.principal, req.params.organizationId, req.body ?? {});
        return reply.status(201).header('location', space.urls.location).send(space);
      },
    );

    app.get(
      '/collections/:collectionId/spaces',
      {
        schema: {
          operationId: 'listSpacesInCollectionById',
          tags: ['Collections'],
          params: CollectionParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: ListOf(SpaceSchema) },
        },
      },
      async (req, reply) =>
        sendJsonBytes(
          reply,
          await spaces.listSpacesInCollectionJson(ctx, req.principal, req.params.collectionId, pageRequest(req.query)),
        ),
    );

    app.get(
      '/orgs/:organizationId/members/:userId/spaces',
      {
        schema: {
          operationId: 'listSpacesForOrganizationMember',
          tags: ['Members'],
          params: Type.Object({ organizationId: EntityId, userId: EntityId }),
          querystring: Type.Object({
            ...PagingQuery,
            order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
          }),
          response: { 200: ListOf(Type.Object({ permission: Type.String(), space: SpaceSchema })) },
        },
      },
      async (req) =>
        spaces.listSpacesForMember(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.userId,
          req.query.order ?? 'desc',
          pageRequest(req.query),
        ),
    );

    app.get(
      '/spaces/:spaceId',
      {
        schema: {
          operationId: 'getSpaceById',
          tags,
          params: SpaceParams,
          // shareKey resolves published URLs of share-link content; accepted here for client compatibility.
          querystring: Type.Object({ shareKey: Type.Optional(Type.String({ maxLength: 200 })) }),
          response: { 200: SpaceSchema },
        },
      },
      (req, reply) => {
        // The hot path answers without a promise; anything not cached takes the async one.
        const cached = spaces.cachedSpaceJson(ctx, req.principal, req.params.spaceId);
        if (cached) return void sendJsonBytes(reply, cached);
        return spaces
          .spaceJsonFor(ctx, req.principal, req.params.spaceId)
          .then((bytes) => void sendJsonBytes(reply, bytes));
      },
    );

    app.patch(
      '/spaces/:spaceId',
      {
        schema: {
          operationId: 'updateSpaceById',
          tags,
          params: SpaceParams,
          body: UpdateSpaceBody,
          response: { 200: SpaceSchema },
        },
      },
      async (req) => spaces.updateSpace(ctx, req.principal, req.params.spaceId, req.body),
    );

    app.delete(
      '/spaces/:spaceId',
      { schema: { operationId: 'deleteSpaceById', tags, params: SpaceParams, response: { 204: Type.Null() } } },
      async (req, reply) => {
        await lifecycle.deleteSpace(ctx, req.principal, req.params.spaceId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/spaces/:spaceId/duplicate',
      { schema: { operationId: 'duplicateSpace', tags, params: SpaceParams, response: { 201: SpaceSchema } } },
      async (req, reply) => {
        const copy = await lifecycle.duplicateSpace(ctx, req.principal, req.params.spaceId);
        return reply.status(201).header('location', copy.urls.location).send(copy);
      },
    );

    app.post(
      '/spaces/:spaceId/restore',
      { schema: { operationId: 'restoreSpace', tags, params: SpaceParams, response: { 200: SpaceSchema } } },
      async (req) => lifecycle.restoreSpace(ctx, req.principal, req.params.spaceId),
    );

    app.post(
      '/spaces/:spaceId/move',
      {
        schema: {
          operationId: 'moveSpace',
          tags,
          params: SpaceParams,
          body: SpaceMoveBody,
          response: { 200: SpaceSchema },
        },
      },
      async (req) => lifecycle.moveSpace(ctx, req.principal, req.params.spaceId, req.body),
    );

    app.post(
      '/spaces/:spaceId/transfer',
      {
        schema: {
          operationId: 'transferSpace',
          tags,
          params: SpaceParams,
          body: SpaceTransferBody,
          response: { 200: SpaceSchema },
        },
      },
      async (req) => lifecycle.transferSpace(ctx, req.principal, req.params.spaceId, req.body.organization),
    );
  };
