import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { notFound } from '../../http/errors';
import { sendJsonWithEtag } from '../../http/etag';
import { pageRequest, pageArray } from '../../http/paging';
import type { Storage } from '../storage/storage';
import { presentFile, presentPage, presentRevision } from './present';
import { pageFields, type PageFormatName } from './page-format';
import { FileParams, FilesQuery, FlagsQuery, PageParams, PageQuery, PathParams, RevisionFileParams, RevisionPageParams, RevisionParams, SpaceContentParams } from './schemas';
import { spaceRevision, type Revisions } from './service';
import type { RevisionView } from './view';

const tags = ['Space content'];
/** Documented shapes are GitBook's (Revision, RevisionPage, RevisionFile); responses are pre-serialized. */
const Json = (description: string) => Type.Object({}, { additionalProperties: true, description });

/**
 * Space content reads (current revision) and revision reads, served from
 * immutable revisions with ETag = revision id (and the variant).
 */
export const contentRoutes = (ctx: AppContext, storage: Storage, revisions: Revisions): FastifyPluginAsyncTypebox => async (app) => {
  const revisionJson = (v: RevisionView) => revisions.json(`rev:${v.revision.id}`, () => presentRevision(ctx, storage, v.revision));
  const pagesJson = (v: RevisionView) =>
    revisions.json(`pages:${v.revision.id}`, () => ({ pages: v.revision.pages.map((p) => presentPage(ctx, v.revision, p)) }));
  const pageJson = (v: RevisionView, pageId: string | undefined, format: PageFormatName) => {
    const page = pageId === undefined ? undefined : v.pagesById.get(pageId);
    if (!page) throw notFound('Page');
    return revisions.json(`page:${v.revision.id}:${page.id}:${format}`, () => presentPage(ctx, v.revision, page, (p) => pageFields(p, format)));
  };
  const fileJson = (v: RevisionView, fileId: string) => {
    const file = v.filesById.get(fileId);
    if (!file) throw notFound('File');
    return JSON.stringify(presentFile(storage, file));
  };
  const filesList = (v: RevisionView, query: { page?: string; limit?: number }) =>
    pageArray((v.revision.files as Parameters<typeof presentFile>[1][]).map((f) => presentFile(storage, f)), pageRequest(query));

  app.get(
    '/spaces/:spaceId/content',
    { schema: { operationId: 'getCurrentRevision', tags, params: SpaceContentParams, querystring: FlagsQuery, response: { 200: Json('Revision') } } },
    async (req, reply) => {
      const v = await spaceRevision(ctx, revisions, req.principal, req.params.spaceId);
      return sendJsonWithEtag(req, reply, v.revision.id, await revisionJson(v));
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId',
    { schema: { operationId: 'getRevisionById', tags: ['Revisions'], params: RevisionParams, querystring: FlagsQuery, response: { 200: Json('Revision') } } },
    async (req, reply) => {
      const v = await spaceRevision(ctx, revisions, req.principal, req.params.spaceId, req.params.revisionId);
      return sendJsonWithEtag(req, reply, v.revision.id, await revisionJson(v));
    },
  );

  app.get(
    '/spaces/:spaceId/content/pages',
    { schema: { operationId: 'listPages', tags, params: SpaceContentParams, querystring: FlagsQuery, response: { 200: Json('{pages: RevisionPage[]}') } } },
    async (req, reply) => {
      const v = await spaceRevision(ctx, revisions, req.principal, req.params.spaceId);
      return sendJsonWithEtag(req, reply, `${v.revision.id}:pages`, await pagesJson(v));
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/pages',
    { schema: { operationId: 'listPagesInRevisionById', tags: ['Revisions'], params: RevisionParams, querystring: FlagsQuery, response: { 200: Json('{pages: RevisionPage[]}') } } },
    async (req, reply) => {
      const v = await spaceRevision(ctx, revisions, req.principal, req.params.spaceId, req.params.revisionId);
      return sendJsonWithEtag(req, reply, `${v.revision.id}:pages`, await pagesJson(v));
    },
  );

  app.get(
    '/spaces/:spaceId/content/page/:pageId',
    { schema: { operationId: 'getPageById', tags, params: PageParams, querystring: PageQuery, response: { 200: Json('RevisionPage') } } },
    async (req, reply) => {
      const v = await spaceRevision(ctx, revisions, req.principal, req.params.spaceId);
      const format = req.query.format ?? 'markdown';
      return sendJsonWithEtag(req, reply, `${v.revision.id}:${req.params.pageId}:${format}`, await pageJson(v, req.params.pageId, format));
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/page/:pageId',
    { schema: { operationId: 'getPageInRevisionById', tags: ['Revisions'], params: RevisionPageParams, querystring: PageQuery, response: { 200: Json('RevisionPage') } } },
    async (req, reply) => {
      const v = await spaceRevision(ctx, revisions, req.principal, req.params.spaceId, req.params.revisionId);
      const format = req.query.format ?? 'markdown';
      return sendJsonWithEtag(req, reply, `${v.revision.id}:${req.params.pageId}:${format}`, await pageJson(v, req.params.pageId, format));
    },
  );
  app.get(
    '/spaces/:spaceId/content/path/*',
    { schema: { operationId: 'getPageByPath', tags: ['Revisions'], params: PathParams, querystring: PageQuery, response: { 200: Json('RevisionPageDocument or RevisionPageGroup') } } },
    async (req, reply) => {
      const v = await spaceRevision(ctx, revisions, req.principal, req.params.spaceId);
      const path = req.params['*'].replace(/^\/+|\/+$/g, '');
      const page = v.pagesByPath.get(path);
      const format = req.query.format ?? 'markdown';
      return sendJsonWithEtag(req, reply, `${v.revision.id}:${page?.id}:${format}`, await pageJson(v, page?.id, format));
    },
  );

  app.get(
    '/spaces/:spaceId/content/files',
    { schema: { operationId: 'listFiles', tags, params: SpaceContentParams, querystring: FilesQuery, response: { 200: Json('list of RevisionFile') } } },
    async (req) => filesList(await spaceRevision(ctx, revisions, req.principal, req.params.spaceId), req.query),
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/files',
    { schema: { operationId: 'listFilesInRevisionById', tags: ['Revisions'], params: RevisionParams, querystring: FilesQuery, response: { 200: Json('list of RevisionFile') } } },
    async (req) => filesList(await spaceRevision(ctx, revisions, req.principal, req.params.spaceId, req.params.revisionId), req.query),
  );
  app.get(
    '/spaces/:spaceId/content/files/:fileId',
    { schema: { operationId: 'getFileById', tags, params: FileParams, querystring: FlagsQuery, response: { 200: Json('RevisionFile') } } },
    async (req, reply) => {
      const v = await spaceRevision(ctx, revisions, req.principal, req.params.spaceId);
      return sendJsonWithEtag(req, reply, `${v.revision.id}:file:${req.params.fileId}`, fileJson(v, req.params.fileId));
    },
  );
  app.get(
    '/spaces/:spaceId/revisions/:revisionId/files/:fileId',
    { schema: { operationId: 'getFileInRevisionById', tags: ['Revisions'], params: RevisionFileParams, querystring: FlagsQuery, response: { 200: Json('RevisionFile') } } },
    async (req, reply) => {
      const v = await spaceRevision(ctx, revisions, req.principal, req.params.spaceId, req.params.revisionId);
      return sendJsonWithEtag(req, reply, `${v.revision.id}:file:${req.params.fileId}`, fileJson(v, req.params.fileId));
    },
  );
};
