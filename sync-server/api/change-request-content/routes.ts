import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { Url } from '../../http/schemas';
import { ChangeRequestSchema, CrParams } from '../change-requests/schemas';
import { UpdateContentBody, UpdateContentQuery } from './schemas';
import { updateChangeRequestContent } from './service';

/** Largest body of a batch: a few inline files of 1 MB (1.34 MB as base64) beside the pages. */
export const CONTENT_UPDATE_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const PageRef = Type.Object({
  object: Type.Literal('page'),
  id: Type.String(),
  urls: Type.Object({ location: Url }),
});
const ContentUpdate = Type.Object({
  changeRequest: ChangeRequestSchema,
  changes: Type.Array(
    Type.Union([
      Type.Object({ object: Type.Literal('created_page'), ref: Type.Optional(Type.String()), page: PageRef }),
      Type.Object({ object: Type.Literal('updated_page'), page: PageRef }),
      Type.Object({ object: Type.Literal('deleted_page'), page: Type.String() }),
    ]),
  ),
  insertedFiles: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        contentType: Type.String(),
        downloadURL: Type.String(),
        size: Type.Number(),
        dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() })),
      }),
    ),
  ),
});

/**
 * GitBook's updateChangeRequestContent: an atomic batch of page and file
 * changes applied as CRDT edits to the change request's document (service.ts).
 */
export const changeRequestContentRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/spaces/:spaceId/change-requests/:changeRequestId/content',
      {
        // Inline files (base64, up to 1 MB each) do not fit the API's 1 MB JSON limit.
        bodyLimit: CONTENT_UPDATE_BODY_LIMIT_BYTES,
        schema: {
          operationId: 'updateChangeRequestContent',
          tags: ['Change request content'],
          summary: 'Apply a batch of content changes to a change request',
          params: CrParams,
          querystring: UpdateContentQuery,
          body: UpdateContentBody,
          response: { 200: Type.Union([ContentUpdate, ChangeRequestSchema]) },
        },
      },
      async (req) =>
        updateChangeRequestContent(
          ctx,
          req.principal,
          req.params.spaceId,
          req.params.changeRequestId,
          req.body,
          req.query.compat ?? true,
        ),
    );
  };
