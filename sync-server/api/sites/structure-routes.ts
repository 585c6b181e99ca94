import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import * as groups from './groups';
import { deleteItem, moveItem } from './items';
import { itemRoutes } from './item-routes';
import {
  AddGroupBody,
  AddSectionBody,
  AddSiteSpaceBody,
  GroupAddSectionBody,
  GroupMoveBody,
  GroupParams,
  GroupSchema,
  GroupSectionParams,
  ListSiteSpacesQuery,
  SectionMoveBody,
  SectionParams,
  SectionSchema,
  ShareKeyQuery,
  SiteSpaceMoveBody,
  SiteSpaceParams,
  SiteSpaceSchema,
  UpdateGroupBody,
  UpdateSectionBody,
  UpdateSiteSpaceBody,
} from './schemas';
import * as sections from './sections';
import * as siteSpaces from './site-spaces';

const tags = ['Sites'];

/** The structure of a site: its sections, section groups (and which sections they hold), and site spaces. */
export const structureRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(
      itemRoutes(ctx, {
        collection: 'sections',
        idParam: 'siteSectionId',
        operationIds: {
          list: 'listSiteSections',
          add: 'addSectionToSite',
          update: 'updateSiteSectionById',
          delete: 'deleteSiteSectionById',
          move: 'moveSiteSection',
        },
        item: SectionSchema,
        params: SectionParams,
        listQuery: ShareKeyQuery,
        addBody: AddSectionBody,
        updateBody: UpdateSectionBody,
        moveBody: SectionMoveBody,
        pointer: 'siteSection',
        list: (c, p, ref, query, page) => sections.listSections(c, p, ref, query.shareKey, page),
        add: sections.addSection,
        update: sections.updateSection,
        remove: (c, p, ref, id) => deleteItem(c, p, ref, sections.SECTIONS, id),
        move: (c, p, ref, id, position) => moveItem(c, p, ref, sections.SECTIONS, id, position),
      }),
    );

    await app.register(
      itemRoutes(ctx, {
        collection: 'section-groups',
        idParam: 'siteSectionGroupId',
        operationIds: {
          list: 'listSiteSectionGroups',
          add: 'addSectionGroupToSite',
          update: 'updateSiteSectionGroupById',
          delete: 'deleteSiteSectionGroupById',
          move: 'moveSiteSectionGroup',
        },
        item: GroupSchema,
        params: GroupParams,
        listQuery: {},
        addBody: AddGroupBody,
        updateBody: UpdateGroupBody,
        moveBody: GroupMoveBody,
        pointer: 'id',
        list: (c, p, ref, _query, page) => groups.listGroups(c, p, ref, page),
        add: groups.addGroup,
        update: groups.updateGroup,
        remove: (c, p, ref, id) => deleteItem(c, p, ref, groups.GROUPS, id),
        move: (c, p, ref, id, position) => moveItem(c, p, ref, groups.GROUPS, id, position),
      }),
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
      async (req, reply) => {
        const { siteSectionGroupId, ...ref } = req.params;
        const group = await groups.addSectionToGroup(ctx, req.principal, ref, siteSectionGroupId, req.body.sectionId);
        return reply.status(201).send(group);
      },
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
        const { siteSectionGroupId, siteSectionId, ...ref } = req.params;
        await groups.removeSectionFromGroup(ctx, req.principal, ref, siteSectionGroupId, siteSectionId);
        return reply.status(204).send(null);
      },
    );

    await app.register(
      itemRoutes(ctx, {
        collection: 'site-spaces',
        idParam: 'siteSpaceId',
        operationIds: {
          list: 'listSiteSpaces',
          add: 'addSpaceToSite',
          update: 'updateSiteSpaceById',
          delete: 'deleteSiteSpaceById',
          move: 'moveSiteSpace',
        },
        item: SiteSpaceSchema,
        params: SiteSpaceParams,
        listQuery: ListSiteSpacesQuery.properties,
        addBody: AddSiteSpaceBody,
        updateBody: UpdateSiteSpaceBody,
        moveBody: SiteSpaceMoveBody,
        pointer: 'siteSpace',
        list: siteSpaces.listSiteSpaces,
        add: siteSpaces.addSiteSpace,
        update: siteSpaces.updateSiteSpace,
        remove: (c, p, ref, id) => deleteItem(c, p, ref, siteSpaces.SITE_SPACES, id),
        move: (c, p, ref, id, position) => moveItem(c, p, ref, siteSpaces.SITE_SPACES, id, position),
      }),
    );
  };
