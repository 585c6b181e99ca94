import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { notFound } from '../../http/errors';
import { ListOf, pageArray, PagingQuery, pageRequest } from '../../http/paging';
import { fileBacklinks, linkItems, linksOf, pageBacklinks } from './links';
import { CONTENT_SCOPES, SpaceContentParams } from './schemas';
import { changeRequestRevisionWithRefs, spaceRevisionWithRefs } from './service';

const StatusQuery = Type.Object({
  ...PagingQuery,
  status: Type.Optional(Type.Union([Type.Literal('ok'), Type.Literal('broken'), Type.Literal('in-app')])),
});
const Reference = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'A content reference {kind, organization, space, versionContext, page|file|anchor|url}',
  },
);
const LinkItem = Type.Object({
  status: Type.String(),
  relation: Type.String(),
  targetReference: Reference,
  locationReferences: Type.Array(Reference),
});
const LinksList = Type.Intersect([
  ListOf(LinkItem),
  Type.Object({
    stats: Type.Object({
      total: Type.Number(),
      broken: Type.Object({ total: Type.Number(), changeRequest: Type.Number() }),
    }),
  }),
]);

/** Link analysis of the current content: space links with stats, page links, page and file backlinks. */
export const linkRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/spaces/:spaceId/links',
      {
        schema: {
          operationId: 'listSpaceLinks',
          tags: ['Spaces'],
          params: SpaceContentParams,
          querystring: StatusQuery,
          response: { 200: LinksList },
        },
      },
      async (req) => {
        const { view, refs } = await spaceRevisionWithRefs(ctx, req.principal, req.params.spaceId);
        const { items, stats } = linkItems(refs, await linksOf(ctx.markdown, view), req.query.status);
        return { ...pageArray(items, pageRequest(req.query)), stats };
      },
    );
    // Page links, page backlinks and file backlinks of a space's and of a change request's current content.
    for (const scope of CONTENT_SCOPES) {
      const resolve = (req: { principal: Principal; params: { spaceId: string; changeRequestId?: string } }) =>
        scope.kind === 'space'
          ? spaceRevisionWithRefs(ctx, req.principal, req.params.spaceId)
          : changeRequestRevisionWithRefs(ctx, req.principal, req.params.spaceId, req.params.changeRequestId!);
      app.get(
        `${scope.prefix}/content/page/:pageId/links`,
        {
          schema: {
            operationId: scope.links.pageLinks,
            tags: scope.tags,
            params: scope.params.page,
            querystring: StatusQuery,
            response: { 200: LinksList },
          },
        },
        async (req) => {
          const { view, refs } = await resolve(req);
          if (!view.pagesById.has(req.params.pageId)) throw notFound('Page');
          const { items, stats } = linkItems(
            refs,
            (await linksOf(ctx.markdown, view)).filter((l) => l.from === req.params.pageId),
            req.query.status,
          );
          return { ...pageArray(items, pageRequest(req.query)), stats };
        },
      );
      app.get(
        `${scope.prefix}/content/page/:pageId/backlinks`,
        {
          schema: {
            operationId: scope.links.pageBacklinks,
            tags: scope.tags,
            params: scope.params.page,
            querystring: Type.Object(PagingQuery),
            response: { 200: ListOf(Reference) },
          },
        },
        async (req) => {
          const { view, refs } = await resolve(req);
          if (!view.pagesById.has(req.params.pageId)) throw notFound('Page');
          const links = await linksOf(ctx.markdown, view);
          return pageArray(pageBacklinks(refs, view, links, req.params.pageId), pageRequest(req.query));
        },
      );
      app.get(
        `${scope.prefix}/content/files/:fileId/backlinks`,
        {
          schema: {
            operationId: scope.links.fileBacklinks,
            tags: scope.tags,
            params: scope.params.file,
            querystring: Type.Object(PagingQuery),
            response: { 200: ListOf(Reference) },
          },
        },
        async (req) => {
          const { view, refs } = await resolve(req);
          if (!view.filesById.has(req.params.fileId)) throw notFound('File');
          const links = await linksOf(ctx.markdown, view);
          return pageArray(fileBacklinks(refs, view, links, req.params.fileId), pageRequest(req.query));
        },
      );
    }
  };
