import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import {
  AddSectionBody,
  SectionMoveBody,
  SectionParams,
  SectionSchema,
  ShareKeyQuery,
  SiteParams,
  UpdateSectionBody,
} from './schemas';
import * as sections from './sections';

const tags = ['Sites'];

/** Sections of a site. */
export const sectionRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/sites/:siteId/sections',
      {
        schema: {
          operationId: 'listSiteSections',
          tags,
          params: SiteParams,
          querystring: Type.Object({ ...PagingQuery, ...ShareKeyQuery }),
          response: { 200: ListOf(SectionSchema) },
        },
      },
      async (req) =>
        sections.listSections(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.siteId,
          req.query.shareKey,
          pageRequest(req.query),
        ),
    );

    app.post(
      '/orgs/:organizationId/sites/:siteId/sections',
      {
        schema: {
          operationId: 'addSectionToSite',
          tags,
          params: SiteParams,
          body: AddSectionBody,
          response: { 201: SectionSchema },
        },
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(await sections.addSection(ctx, req.principal, req.params.organizationId, req.params.siteId, req.body)),
    );

    app.patch(
      '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
      {
        schema: {
          operationId: 'updateSiteSectionById',
          tags,
          params: SectionParams,
          body: UpdateSectionBody,
          response: { 200: SectionSchema },
        },
      },
      async (req) =>
        sections.updateSection(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.siteId,
          req.params.siteSectionId,
          req.body,
        ),
    );

    app.delete(
      '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId',
      { schema: { operationId: 'deleteSiteSectionById', tags, params: SectionParams, response: { 204: Type.Null() } } },
      async (req, reply) => {
        await sections.deleteSection(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.siteId,
          req.params.siteSectionId,
        );
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move',
      {
        schema: {
          operationId: 'moveSiteSection',
          tags,
          params: SectionParams,
          body: SectionMoveBody,
          response: { 200: SectionSchema },
        },
      },
      async (req) => {
        const position = req.body?.position;
        return sections.moveSection(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.siteId,
          req.params.siteSectionId,
          {
            before: position?.before?.siteSection,
            after: position?.after?.siteSection,
          },
        );
      },
    );
  };
