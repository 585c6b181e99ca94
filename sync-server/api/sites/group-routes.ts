import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import * as groups from './groups';
import {
  AddGroupBody,
  GroupAddSectionBody,
  GroupMoveBody,
  GroupParams,
  GroupSchema,
  GroupSectionParams,
  SiteParams,
  UpdateGroupBody,
} from './schemas';

const tags = ['Sites'];

/** Section groups of a site, and their membership. */
export const groupRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/sites/:siteId/section-groups',
      {
        schema: {
          operationId: 'listSiteSectionGroups',
          tags,
          params: SiteParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: ListOf(GroupSchema) },
        },
      },
      async (req) =>
        groups.listGroups(ctx, req.principal, req.params.organizationId, req.params.siteId, pageRequest(req.query)),
    );

    app.post(
      '/orgs/:organizationId/sites/:siteId/section-groups',
      {
        schema: {
          operationId: 'addSectionGroupToSite',
          tags,
          params: SiteParams,
          body: AddGroupBody,
          response: { 201: GroupSchema },
        },
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(await groups.addGroup(ctx, req.principal, req.params.organizationId, req.params.siteId, req.body)),
    );

    app.patch(
      '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
      {
        schema: {
          operationId: 'updateSiteSectionGroupById',
          tags,
          params: GroupParams,
          body: UpdateGroupBody,
          response: { 200: GroupSchema },
        },
      },
      async (req) =>
        groups.updateGroup(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.siteId,
          req.params.siteSectionGroupId,
          req.body,
        ),
    );

    app.delete(
      '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId',
      {
        schema: {
          operationId: 'deleteSiteSectionGroupById',
          tags,
          params: GroupParams,
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        await groups.deleteGroup(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.siteId,
          req.params.siteSectionGroupId,
        );
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections',
      {
        schema: {
          operationId: 'addSectionToSiteSectionGroup',
          tags,
          params: GroupParams,
          body: GroupAddSectionBody,
          response: { 201: GroupSchema },
        },
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(
            await groups.addSectionToGroup(
              ctx,
              req.principal,
              req.params.organizationId,
              req.params.siteId,
              req.params.siteSectionGroupId,
              req.body.sectionId,
            ),
          ),
    );

    app.delete(
      '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId',
      {
        schema: {
          operationId: 'removeSectionFromSiteSectionGroup',
          tags,
          params: GroupSectionParams,
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        const { organizationId, siteId, siteSectionGroupId, siteSectionId } = req.params;
        await groups.removeSectionFromGroup(
          ctx,
          req.principal,
          organizationId,
          siteId,
          siteSectionGroupId,
          siteSectionId,
        );
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move',
      {
        schema: {
          operationId: 'moveSiteSectionGroup',
          tags,
          params: GroupParams,
          body: GroupMoveBody,
          response: { 200: GroupSchema },
        },
      },
      async (req) => {
        const position = req.body?.position;
        return groups.moveGroup(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.siteId,
          req.params.siteSectionGroupId,
          {
            before: position?.before?.id,
            after: position?.after?.id,
          },
        );
      },
    );
  };
