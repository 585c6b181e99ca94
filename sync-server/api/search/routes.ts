import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import { EntityId, OrgParams } from '../../http/schemas';
import { searchOrganization, searchSpace } from './service';

const SearchQuery = Type.Object({
  ...PagingQuery,
  query: Type.String({ minLength: 1, maxLength: 512, description: 'Words to find; "quoted phrases", -excluded, or' }),
});
const Section = Type.Object({
  id: Type.String(),
  title: Type.String(),
  path: Type.String(),
  score: Type.Number(),
  resultType: Type.String(),
  body: Type.String(),
  urls: Type.Object({ app: Type.String() }),
});
const PageResult = Type.Object({
  id: Type.String(),
  title: Type.String(),
  description: Type.String(),
  path: Type.String(),
  score: Type.Number(),
  rank: Type.Integer(),
  resultType: Type.String(),
  ancestors: Type.Array(Type.Object({ title: Type.String() })),
  sections: Type.Array(Section),
  urls: Type.Object({ app: Type.String() }),
});
const SpaceResult = Type.Object({
  type: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  score: Type.Number(),
  pages: Type.Array(PageResult),
});

export const searchRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/spaces/:spaceId/search',
      {
        schema: {
          operationId: 'searchSpaceContent',
          tags: ['Spaces'],
          params: Type.Object({ spaceId: EntityId }),
          querystring: SearchQuery,
          response: { 200: ListOf(PageResult) },
        },
      },
      async (req) => searchSpace(ctx, req.principal, req.params.spaceId, req.query.query, pageRequest(req.query)),
    );
    app.get(
      '/orgs/:organizationId/search',
      {
        schema: {
          operationId: 'searchOrganizationContent',
          tags: ['Organizations'],
          params: OrgParams,
          querystring: SearchQuery,
          response: { 200: ListOf(SpaceResult) },
        },
      },
      async (req) =>
        searchOrganization(ctx, req.principal, req.params.organizationId, req.query.query, pageRequest(req.query)),
    );
  };
