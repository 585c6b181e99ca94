import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import { OrgParams } from '../../http/schemas';
import {
  CollectionParams,
  CollectionSchema,
  CreateCollectionBody,
  MoveBody,
  TransferBody,
  UpdateCollectionBody,
} from './schemas';
import * as collections from './service';

const tags = ['Collections'];

export const collectionRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/collections',
      {
        schema: {
          operationId: 'listCollectionsInOrganizationById',
          tags,
          params: OrgParams,
          querystring: Type.Object({
            ...PagingQuery,
            nested: Type.Optional(Type.Boolean({ default: true, description: 'Include nested collections' })),
          }),
          response: { 200: ListOf(CollectionSchema) },
        },
      },
      async (req) =>
        collections.listCollections(
          ctx,
          req.principal,
          req.params.organizationId,
          req.query.nested !== false,
          pageRequest(req.query),
        ),
    );

    app.post(
      '/orgs/:organizationId/collections',
      {
        schema: {
          operationId: 'createCollection',
          tags,
          params: OrgParams,
          body: CreateCollectionBody,
          response: { 201: CollectionSchema },
        },
      },
      async (req, reply) => {
        const created = await collections.createCollection(
          ctx,
          req.principal,
          req.params.organizationId,
          req.body ?? {},
        );
        return reply.status(201).header('location', created.urls.location).send(created);
      },
    );

    app.get(
      '/collections/:collectionId',
      {
        schema: {
          operationId: 'getCollectionById',
          tags,
          params: CollectionParams,
          response: { 200: CollectionSchema },
        },
      },
      async (req) => collections.collectionObjectFor(ctx, req.principal, req.params.collectionId),
    );

    app.patch(
      '/collections/:collectionId',
      {
        schema: {
          operationId: 'updateCollectionById',
          tags,
          params: CollectionParams,
          body: UpdateCollectionBody,
          response: { 200: CollectionSchema },
        },
      },
      async (req) => collections.updateCollection(ctx, req.principal, req.params.collectionId, req.body),
    );

    app.delete(
      '/collections/:collectionId',
      {
        schema: { operationId: 'deleteCollectionById', tags, params: CollectionParams, response: { 204: Type.Null() } },
      },
      async (req, reply) => {
        await collections.deleteCollection(ctx, req.principal, req.params.collectionId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/collections/:collectionId/move',
      {
        schema: {
          operationId: 'moveCollection',
          tags,
          params: CollectionParams,
          body: MoveBody,
          response: { 200: CollectionSchema },
        },
      },
      async (req) => collections.moveCollection(ctx, req.principal, req.params.collectionId, req.body),
    );

    app.post(
      '/collections/:collectionId/transfer',
      {
        schema: {
          operationId: 'transferCollection',
          tags,
          params: CollectionParams,
          body: TransferBody,
          response: { 200: CollectionSchema },
        },
      },
      async (req) => collections.transferCollection(ctx, req.principal, req.params.collectionId, req.body.organization),
    );
  };
