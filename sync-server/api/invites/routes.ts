import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, PagingQuery, pageRequest } from '../../http/paging';
import { OrgParams } from '../../http/schemas';
import { inviteUsers } from './email';
import { joinWithInvite } from './join';
import * as links from './links';
import {
  CreateInviteLinkBody,
  InviteLinkSchema,
  InviteParams,
  InviteUsersBody,
  InviteUsersResponse,
  JoinResponse,
  OrgInviteLinkSchema,
  UpdateInviteLinkBody,
} from './schemas';

const tags = ['Organization invites'];

/** Email invites, invite links, and joining an organization with either. */
export const inviteRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/orgs/:organizationId/invites',
      {
        schema: {
          operationId: 'inviteUsersToOrganization',
          tags,
          summary: 'Invite people by email (admins); each becomes a member when they accept the invite',
          params: OrgParams,
          body: InviteUsersBody,
          response: { 200: InviteUsersResponse },
        },
      },
      async (req) => inviteUsers(ctx, req.principal, req.params.organizationId, req.body),
    );

    app.post(
      '/orgs/:organizationId/invites/:inviteId',
      {
        schema: {
          operationId: 'joinOrganizationWithInvite',
          tags,
          summary: 'Join with an invite link id, or with an email invite sent to your address',
          params: InviteParams,
          response: { 200: JoinResponse },
        },
      },
      async (req) => joinWithInvite(ctx, req.principal, req.params.organizationId, req.params.inviteId),
    );

    app.get(
      '/orgs/:organizationId/link-invites',
      {
        schema: {
          operationId: 'listOrganizationInviteLinks',
          tags,
          summary: 'List the invite links to the organization (admins)',
          params: OrgParams,
          querystring: Type.Object(PagingQuery),
          response: { 200: ListOf(OrgInviteLinkSchema) },
        },
      },
      async (req) => links.listLinks(ctx, req.principal, req.params.organizationId, pageRequest(req.query)),
    );

    app.post(
      '/orgs/:organizationId/link-invites',
      {
        schema: {
          operationId: 'createOrganizationInvite',
          tags,
          summary: 'Create an invite link to the organization (admins) or to a space/collection (its admins)',
          params: OrgParams,
          body: CreateInviteLinkBody,
          response: { 201: InviteLinkSchema },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await links.createLink(ctx, req.principal, req.params.organizationId, req.body)),
    );

    app.get(
      '/orgs/:organizationId/link-invites/:inviteId',
      {
        schema: {
          operationId: 'getOrganizationInviteLink',
          tags,
          summary: 'Get an invite link',
          params: InviteParams,
          response: { 200: InviteLinkSchema },
        },
      },
      async (req) => links.getLink(ctx, req.principal, req.params.organizationId, req.params.inviteId),
    );

    app.patch(
      '/orgs/:organizationId/link-invites/:inviteId',
      {
        schema: {
          operationId: 'updateOrganizationInviteById',
          tags,
          summary: 'Change the role (organization link) or level (space/collection link) of an invite link',
          params: InviteParams,
          body: UpdateInviteLinkBody,
          response: { 200: InviteLinkSchema },
        },
      },
      async (req) => links.updateLink(ctx, req.principal, req.params.organizationId, req.params.inviteId, req.body),
    );

    app.delete(
      '/orgs/:organizationId/link-invites/:inviteId',
      {
        schema: {
          operationId: 'deleteOrganizationInviteById',
          tags,
          summary: 'Delete an invite link (204 also when it does not exist)',
          params: InviteParams,
          response: { 204: Type.Null({ description: 'Deleted, or did not exist' }) },
        },
      },
      async (req, reply) => {
        await links.deleteLink(ctx, req.principal, req.params.organizationId, req.params.inviteId);
        return reply.status(204).send(null);
      },
    );
  };
