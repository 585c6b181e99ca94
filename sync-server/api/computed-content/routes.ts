import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { SpaceContentParams } from '../content/schemas';
import { ComputeBody, DocumentQuery } from './schemas';
import { computedDocument, computedRevision } from './service';

const Json = (description: string) => Type.Object({}, { additionalProperties: true, description });

/** GitBook's computed content operations (what a computed page generates, read without storing it). */
export const computedContentRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/spaces/:spaceId/content/computed/revision',
      {
        schema: {
          operationId: 'getComputedRevision',
          tags: ['Space content'],
          summary: 'Compute the pages of a computed content source',
          params: SpaceContentParams,
          body: ComputeBody,
          response: { 200: Json('{pages: RevisionPage[], files: RevisionFile[], reusableContents: []}') },
        },
      },
      async (req) => computedRevision(ctx, req.principal, req.params.spaceId, req.body),
    );
    app.post(
      '/spaces/:spaceId/content/computed/document',
      {
        schema: {
          operationId: 'getComputedDocument',
          tags: ['Space content'],
          summary: 'Compute one document of a computed content source',
          params: SpaceContentParams,
          querystring: DocumentQuery,
          body: ComputeBody,
          response: { 200: Json('JSONDocument') },
        },
      },
      async (req) => computedDocument(ctx, req.principal, req.params.spaceId, req.body),
    );
  };
