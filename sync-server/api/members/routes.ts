import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context';
import { ListOf, pageRequest } from '../../http/paging';
import { OrgParams } from '../../http/schemas';
import { ListMembersQuery, MemberParams, MemberSchema, PingResponse, UpdateMemberBody } from './schemas';
import * as members from './service';

const tags = ['Organization members'];

/**
 * Sends cached JSON bytes as they are: Fastify writes a Buffer without the
 * route's serializer and without encoding a string again (the response
 * schema still documents the shape).
 */
const sendJsonBytes = (reply: FastifyReply, bytes: Buffer) => reply.type('application/json; charset=utf-8').send(bytes);

/** Organization members: list, read, change role, remove, last-seen ping, SSO flag. */
export const memberRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/members',
      {
        schema: {
          operationId: 'listMembersInOrganizationById',
          tags,
          summary: 'List the members of an organization (full members only)',
          params: OrgParams,
          querystring: ListMembersQuery,
          response: { 200: ListOf(MemberSchema) },
        },
      },
      async (req, reply) => {
        const { order, role, search, sort } = req.query;
        const bytes = await members.listMembersJson(
          ctx,
          req.principal,
          req.params.organizationId,
          { order, role, search, sort },
          pageRequest(req.query),
        );
        return sendJsonBytes(reply, bytes);
      },
    );

    app.get(
      '/orgs/:organizationId/members/:userId',
      {
        schema: {
          operationId: 'getMemberInOrganizationById',
          tags,
          summary: 'Get a member of an organization',
          params: MemberParams,
          response: { 200: MemberSchema },
        },
      },
      async (req) => members.getMember(ctx, req.principal, req.params.organizationId, req.params.userId),
    );

    app.patch(
      '/orgs/:organizationId/members/:userId',
      {
        schema: {
          operationId: 'updateMemberInOrganizationById',
          tags,
          summary: "Change a member's role (admins); the last admin cannot be demoted",
          params: MemberParams,
          body: UpdateMemberBody,
          response: { 200: MemberSchema },
        },
      },
      async (req) => members.updateMember(ctx, req.principal, req.params.organizationId, req.params.userId, req.body),
    );

    app.delete(
      '/orgs/:organizationId/members/:userId',
      {
        schema: {
          operationId: 'removeMemberFromOrganizationById',
          tags,
          summary: 'Remove a member (admins), or leave the organization (the member themself)',
          params: MemberParams,
          response: { 204: Type.Null({ description: 'Removed, or was not a member' }) },
        },
      },
      async (req, reply) => {
        await members.removeMember(ctx, req.principal, req.params.organizationId, req.params.userId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/orgs/:organizationId/ping',
      {
        schema: {
          operationId: 'updateOrganizationMemberLastSeenAt',
          tags,
          summary: "Update the caller's last-seen time in the organization",
          params: OrgParams,
          response: { 200: PingResponse },
        },
      },
      async (req) => members.ping(ctx, req.principal, req.params.organizationId),
    );

    app.post(
      '/orgs/:organizationId/members/:userId/sso',
      {
        schema: {
          operationId: 'setUserAsSSOMemberForOrganization',
          tags,
          summary: 'Mark a member as an SSO member (admins)',
          params: MemberParams,
          response: { 200: MemberSchema },
        },
      },
      async (req) => members.setSsoMember(ctx, req.principal, req.params.organizationId, req.params.userId),
    );
  };
