import { Type, type Static, type TObject, type TProperties, type TSchema } from 'typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { ListOf, PagingQuery, pageRequest, type PageRequest } from '../../http/paging';
import type { SiteRef } from './access';
import type { MovePosition } from './ordering';
import { SiteParams } from './schemas';

const tags = ['Sites'];

/**
 * The five routes of one kind of ordered item of a site (sections, section
 * groups, site spaces): list, add, update, delete and move, under
 * `/orgs/:organizationId/sites/:siteId/<collection>`, with GitBook's
 * operationIds and schemas for that kind.
 */
export interface ItemRouteSpec<Q extends TProperties, A extends TSchema, U extends TSchema> {
  /** The path segment of the collection under the site ("sections"). */
  collection: string;
  /** The path parameter naming one item ("siteSectionId"). */
  idParam: string;
  operationIds: { list: string; add: string; update: string; delete: string; move: string };
  /** The item's response schema, and its path parameters. */
  item: TSchema;
  params: TObject;
  /** Query parameters of the list besides paging. */
  listQuery: Q;
  addBody: A;
  updateBody: U;
  moveBody: TSchema;
  /** The field of a move pointer naming the sibling ("siteSection"). */
  pointer: string;
  list(ctx: AppContext, p: Principal, ref: SiteRef, query: Static<TObject<Q>>, page: PageRequest): Promise<unknown>;
  add(ctx: AppContext, p: Principal, ref: SiteRef, body: Static<A>): Promise<unknown>;
  update(ctx: AppContext, p: Principal, ref: SiteRef, id: string, body: Static<U>): Promise<unknown>;
  remove(ctx: AppContext, p: Principal, ref: SiteRef, id: string): Promise<void>;
  move(ctx: AppContext, p: Principal, ref: SiteRef, id: string, position: MovePosition): Promise<unknown>;
}

type Pointer = Record<string, string | undefined>;
type MoveRequest = { position?: { before?: Pointer; after?: Pointer } } | undefined;

/** Registers the routes of `spec` (a plain plugin: its handlers serve whichever kind `spec` describes). */
export function itemRoutes<Q extends TProperties, A extends TSchema, U extends TSchema>(
  ctx: AppContext,
  spec: ItemRouteSpec<Q, A, U>,
): FastifyPluginAsync {
  const collection = `/orgs/:organizationId/sites/:siteId/${spec.collection}`;
  const one = `${collection}/:${spec.idParam}`;
  // Fastify validated params, query and body against the schemas below before a handler runs;
  // these casts only restate what was checked.
  const ref = (req: FastifyRequest) => req.params as SiteRef;
  const id = (req: FastifyRequest) => (req.params as Record<string, string>)[spec.idParam]!;
  const { operationIds: op, item, params } = spec;
  return async (app) => {
    app.get(
      collection,
      {
        schema: {
          operationId: op.list,
          tags,
          params: SiteParams,
          querystring: Type.Object({ ...PagingQuery, ...spec.listQuery }),
          response: { 200: ListOf(item) },
        },
      },
      async (req) => {
        const query = req.query as Static<TObject<Q>> & { page?: string; limit?: number };
        return spec.list(ctx, req.principal, ref(req), query, pageRequest(query));
      },
    );

    app.post(
      collection,
      { schema: { operationId: op.add, tags, params: SiteParams, body: spec.addBody, response: { 201: item } } },
      async (req, reply) => reply.status(201).send(await spec.add(ctx, req.principal, ref(req), req.body as Static<A>)),
    );

    app.patch(
      one,
      { schema: { operationId: op.update, tags, params, body: spec.updateBody, response: { 200: item } } },
      async (req) => spec.update(ctx, req.principal, ref(req), id(req), req.body as Static<U>),
    );

    app.delete(
      one,
      { schema: { operationId: op.delete, tags, params, response: { 204: Type.Null() } } },
      async (req, reply) => {
        await spec.remove(ctx, req.principal, ref(req), id(req));
        return reply.status(204).send(null);
      },
    );

    app.post(
      `${one}/move`,
      { schema: { operationId: op.move, tags, params, body: spec.moveBody, response: { 200: item } } },
      async (req) => {
        const position = (req.body as MoveRequest)?.position;
        const before = position?.before?.[spec.pointer];
        const after = position?.after?.[spec.pointer];
        return spec.move(ctx, req.principal, ref(req), id(req), { before, after });
      },
    );
  };
}
