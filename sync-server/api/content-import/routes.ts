import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { pageRequest } from '../../http/paging';
import { OrgParams } from '../../http/schemas';
import { CrParams, SpaceParams } from '../change-requests/schemas';
import {
  ImportContentBody,
  ImportContentResult,
  ImportRunList,
  ImportRunParams,
  ImportRunSchema,
  ListImportRunsQuery,
  StartImportRunBody,
} from './schemas';
import { cancelRun, getRun, importContent, listRuns, startImportRun } from './service';

const tags = ['Imports'];

/** GitBook's import runs, and the older content/import of a space or change request (see service.ts). */
export const contentImportRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    // content/import waits for its run: a closing server stops the wait (preClose runs before in-flight requests are awaited).
    const stopping = new AbortController();
    app.addHook('preClose', (done) => {
      stopping.abort();
      done();
    });
    app.get(
      '/org/:organizationId/imports',
      {
        schema: {
          operationId: 'listImportRuns',
          tags,
          summary: 'List the import runs of an organization',
          params: OrgParams,
          querystring: ListImportRunsQuery,
          response: { 200: ImportRunList },
        },
      },
      async (req) => listRuns(ctx, req.principal, req.params.organizationId, req.query, pageRequest(req.query)),
    );
    app.post(
      '/org/:organizationId/imports',
      {
        schema: {
          operationId: 'startImportRun',
          tags,
          summary: 'Import content into a space from a website or uploaded files',
          params: OrgParams,
          body: StartImportRunBody,
          response: { 201: ImportRunSchema },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await startImportRun(ctx, req.principal, req.params.organizationId, req.body)),
    );
    app.get(
      '/org/:organizationId/imports/:importRunId',
      {
        schema: {
          operationId: 'getImportRun',
          tags,
          summary: 'Get an import run',
          params: ImportRunParams,
          response: { 200: ImportRunSchema },
        },
      },
      async (req) => getRun(ctx, req.principal, req.params.organizationId, req.params.importRunId),
    );
    app.post(
      '/org/:organizationId/imports/:importRunId/cancel',
      {
        schema: {
          operationId: 'cancelImportRun',
          tags,
          summary: 'Cancel an import run',
          params: ImportRunParams,
          response: { 200: ImportRunSchema },
        },
      },
      async (req) => cancelRun(ctx, req.principal, req.params.organizationId, req.params.importRunId),
    );
    app.post(
      '/spaces/:spaceId/content/import',
      {
        schema: {
          operationId: 'importContent',
          tags,
          summary:
            "Import content into a space, answering once written (Folio extension: GitBook's older operation, kept)",
          params: SpaceParams,
          body: ImportContentBody,
          response: { 200: ImportContentResult },
        },
      },
      async (req) => importContent(ctx, req.principal, req.params.spaceId, undefined, req.body, stopping.signal),
    );
    app.post(
      '/spaces/:spaceId/change-requests/:changeRequestId/content/import',
      {
        schema: {
          operationId: 'importContentInChangeRequest',
          tags,
          summary:
            "Import content into a change request, answering once written (Folio extension: GitBook's older operation, kept)",
          params: CrParams,
          body: ImportContentBody,
          response: { 200: ImportContentResult },
        },
      },
      async (req) =>
        importContent(ctx, req.principal, req.params.spaceId, req.params.changeRequestId, req.body, stopping.signal),
    );
  };
