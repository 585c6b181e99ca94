import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { notFound } from '../../http/errors';
import { prepareJson, sendJsonWithEtag, sendPreparedJson, type PreparedJson } from '../../http/etag';
import { Lru } from '../../store/lru';
import { pageRequest, pageArray } from '../../http/paging';
import { presentFile, presentPage, presentRevision } from './present';
import { pageFields, type PageFormatName } from './page-format';
import {
  CONTENT_SCOPES,
  FilesQuery,
  FlagsQuery,
  PageQuery,
  RevisionFileParams,
  RevisionPageParams,
  RevisionParams,
} from './schemas';
import { cachedSpaceRevision, changeRequestRevisionWithRefs, spaceRevision } from './service';
import { pageAtFormerPath } from './former-paths';
import { withMergedFrom } from './merged-from';
import type { RevisionView } from '../../docs/revision-view';
import { revisionCacheKey } from '../../computed-content/expand';

/** Documented shapes are GitBook's (Revision, RevisionPage, RevisionFile); responses are pre-serialized. */
const Json = (description: string) => Type.Object({}, { additionalProperties: true, description });

/**
 * Space content reads (current revision) and revision reads, served from
 * immutable revisions with ETag = revision id (and the variant).
 */
export const contentRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    const { storage, revisions } = ctx;
    // Revision JSON holds download links, which expire: it is cached (and tagged) per link period.
    // Cached under the revision's key: its id, plus the spec versions when computed pages were expanded.
    const key = (v: RevisionView) => revisionCacheKey(v.revision);
    const revisionJson = (v: RevisionView) =>
      revisions.json(`rev:${key(v)}:${storage.linkEpoch()}`, () => presentRevision(ctx, storage, v.revision));
    const linksTag = (tag: string) => `${tag}.${storage.linkEpoch()}`;
    const pagesJson = (v: RevisionView) =>
      revisions.json(`pages:${key(v)}`, () => ({
        pages: v.revision.pages.map((p) => presentPage(ctx, v.revision, p)),
      }));
    // Documents are made once per page text in the parse pool (ctx.markdown), then the response is kept serialized.
    const pageJson = async (v: RevisionView, pageId: string | undefined, format: PageFormatName) => {
      const page = pageId === undefined ? undefined : v.pagesById.get(pageId);
      if (!page) throw notFound('Page');
      const pageKey = `page:${key(v)}:${page.id}:${format}`;
      const hit = revisions.serialized.get(pageKey);
      if (hit !== undefined) return hit;
      const fields = await pageFields(ctx.markdown, page, format);
      return revisions.json(pageKey, () => presentPage(ctx, v.revision, page, fields));
    };
    const pageTag = (v: RevisionView, pageId: string | undefined, format: PageFormatName) =>
      `${key(v)}:${pageId}:${format}`;
    // Page responses as sent (bytes and ETag), per revision, page and format: a hot GET page encodes nothing.
    const preparedPages = new Lru<string, PreparedJson>(4_000, {
      maxWeight: 64 * 1024 * 1024,
      weigh: (p) => p.body.length,
    });
    const sendPage = async (
      req: FastifyRequest,
      reply: FastifyReply,
      v: RevisionView,
      pageId: string | undefined,
      format: PageFormatName,
    ) => {
      const tag = pageTag(v, pageId, format);
      let prepared = preparedPages.get(tag);
      if (prepared === undefined) {
        prepared = prepareJson(tag, await pageJson(v, pageId, format));
        preparedPages.set(tag, prepared);
      }
      return sendPreparedJson(req, reply, prepared);
    };
    const fileJson = (v: RevisionView, fileId: string) => {
      const file = v.filesById.get(fileId);
      if (!file) throw notFound('File');
      return JSON.stringify(presentFile(storage, file, v.revision.spaceId));
    };
    const filesList = (v: RevisionView, query: { page?: string; limit?: number }) =>
      pageArray(
        (v.revision.files as Parameters<typeof presentFile>[1][]).map((f) =>
          presentFile(storage, f, v.revision.spaceId),
        ),
        pageRequest(query),
      );

    // The current content of a space and of a change request: the same operations under both prefixes.
    for (const scope of CONTENT_SCOPES) {
      const resolve = (req: {
        principal: Principal;
        params: { spaceId: string; changeRequestId?: string };
        query: { computed?: boolean };
      }) =>
        scope.kind === 'space'
          ? spaceRevision(ctx, req.principal, req.params.spaceId, undefined, req.query.computed)
          : changeRequestRevisionWithRefs(
              ctx,
              req.principal,
              req.params.spaceId,
              req.params.changeRequestId!,
              req.query.computed,
            ).then((r) => r.view);
      const params = scope.params;
      app.get(
        `${scope.prefix}/content`,
        {
          schema: {
            operationId: scope.ops.revision,
            tags: scope.tags,
            params: params.base,
            querystring: FlagsQuery,
            response: { 200: Json('Revision') },
          },
        },
        async (req, reply) => {
          const v = await resolve(req);
          const json = await withMergedFrom(ctx, req.principal, v.revision, await revisionJson(v));
          return sendJsonWithEtag(req, reply, linksTag(key(v)), json);
        },
      );
      app.get(
        `${scope.prefix}/content/pages`,
        {
          schema: {
            operationId: scope.ops.pages,
            tags: scope.tags,
            params: params.base,
            querystring: FlagsQuery,
            response: { 200: Json('{pages: RevisionPage[]}') },
          },
        },
        async (req, reply) => {
          const v = await resolve(req);
          return sendJsonWithEtag(req, reply, `${key(v)}:pages`, await pagesJson(v));
        },
      );
      app.get(
        `${scope.prefix}/content/page/:pageId`,
        {
          schema: {
            operationId: scope.ops.page,
            tags: scope.tags,
            params: params.page,
            querystring: PageQuery,
            response: { 200: Json('RevisionPage') },
          },
        },
        (req, reply) => {
          const format = req.query.format ?? 'markdown';
          // The hot path (access, revision and response all in memory) answers without a promise.
          const v = scope.kind === 'space' ? cachedSpaceRevision(ctx, req.principal, req.params.spaceId) : undefined;
          const prepared = v && preparedPages.get(pageTag(v, req.params.pageId, format));
          if (prepared) return void sendPreparedJson(req, reply, prepared);
          return resolve(req).then((view) => sendPage(req, reply, view, req.params.pageId, format));
        },
      );
      app.get(
        `${scope.prefix}/content/path/*`,
        {
          schema: {
            operationId: scope.ops.path,
            tags: ['Revisions'],
            params: params.path,
            querystring: PageQuery,
            response: { 200: Json('RevisionPageDocument or RevisionPageGroup') },
          },
        },
        async (req, reply) => {
          const v = await resolve(req);
          const path = req.params['*'].replace(/^\/+|\/+$/g, '');
          const page = v.pagesByPath.get(path) ?? (await pageAtFormerPath(ctx, v, path));
          return sendPage(req, reply, v, page?.id, req.query.format ?? 'markdown');
        },
      );
      app.get(
        `${scope.prefix}/content/files`,
        {
          schema: {
            operationId: scope.ops.files,
            tags: scope.tags,
            params: params.base,
            querystring: FilesQuery,
            response: { 200: Json('list of RevisionFile') },
          },
        },
        async (req) => filesList(await resolve(req), req.query),
      );
      app.get(
        `${scope.prefix}/content/files/:fileId`,
        {
          schema: {
            operationId: scope.ops.file,
            tags: scope.tags,
            params: params.file,
            querystring: FlagsQuery,
            response: { 200: Json('RevisionFile') },
          },
        },
        async (req, reply) => {
          const v = await resolve(req);
          return sendJsonWithEtag(
            req,
            reply,
            linksTag(`${key(v)}:file:${req.params.fileId}`),
            fileJson(v, req.params.fileId),
          );
        },
      );
    }

    app.get(
      '/spaces/:spaceId/revisions/:revisionId',
      {
        schema: {
          operationId: 'getRevisionById',
          tags: ['Revisions'],
          params: RevisionParams,
          querystring: FlagsQuery,
          response: { 200: Json('Revision') },
        },
      },
      async (req, reply) => {
        const v = await spaceRevision(
          ctx,
          req.principal,
          req.params.spaceId,
          req.params.revisionId,
          req.query.computed,
        );
        const json = await withMergedFrom(ctx, req.principal, v.revision, await revisionJson(v));
        return sendJsonWithEtag(req, reply, linksTag(key(v)), json);
      },
    );

    app.get(
      '/spaces/:spaceId/revisions/:revisionId/pages',
      {
        schema: {
          operationId: 'listPagesInRevisionById',
          tags: ['Revisions'],
          params: RevisionParams,
          querystring: FlagsQuery,
          response: { 200: Json('{pages: RevisionPage[]}') },
        },
      },
      async (req, reply) => {
        const v = await spaceRevision(
          ctx,
          req.principal,
          req.params.spaceId,
          req.params.revisionId,
          req.query.computed,
        );
        return sendJsonWithEtag(req, reply, `${key(v)}:pages`, await pagesJson(v));
      },
    );

    app.get(
      '/spaces/:spaceId/revisions/:revisionId/page/:pageId',
      {
        schema: {
          operationId: 'getPageInRevisionById',
          tags: ['Revisions'],
          params: RevisionPageParams,
          querystring: PageQuery,
          response: { 200: Json('RevisionPage') },
        },
      },
      async (req, reply) => {
        const v = await spaceRevision(
          ctx,
          req.principal,
          req.params.spaceId,
          req.params.revisionId,
          req.query.computed,
        );
        return sendPage(req, reply, v, req.params.pageId, req.query.format ?? 'markdown');
      },
    );
    app.get(
      '/spaces/:spaceId/revisions/:revisionId/files',
      {
        schema: {
          operationId: 'listFilesInRevisionById',
          tags: ['Revisions'],
          params: RevisionParams,
          querystring: FilesQuery,
          response: { 200: Json('list of RevisionFile') },
        },
      },
      async (req) =>
        filesList(
          await spaceRevision(ctx, req.principal, req.params.spaceId, req.params.revisionId, req.query.computed),
          req.query,
        ),
    );
    app.get(
      '/spaces/:spaceId/revisions/:revisionId/files/:fileId',
      {
        schema: {
          operationId: 'getFileInRevisionById',
          tags: ['Revisions'],
          params: RevisionFileParams,
          querystring: FlagsQuery,
          response: { 200: Json('RevisionFile') },
        },
      },
      async (req, reply) => {
        const v = await spaceRevision(
          ctx,
          req.principal,
          req.params.spaceId,
          req.params.revisionId,
          req.query.computed,
        );
        return sendJsonWithEtag(
          req,
          reply,
          linksTag(`${key(v)}:file:${req.params.fileId}`),
          fileJson(v, req.params.fileId),
        );
      },
    );
  };
