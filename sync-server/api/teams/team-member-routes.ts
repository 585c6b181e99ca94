import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, pageRequest } from '../../http/paging';
import { TeamParams } from './schemas';
import {
  AddTeamMemberBody,
  ListTeamMembersQuery,
  TeamMemberParams,
  TeamMemberSchema,
  UpdateTeamMembersBody,
} from './team-member-schemas';
import * as service from './team-member-service';

const tags = ['Teams'];

/** GitBook's team-members operations: who is in a team, after it was created. */
export const teamMemberRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/teams/:teamId/members',
      {
        schema: {
          operationId: 'listTeamMembersInOrganizationById',
          tags,
          summary: 'Members of a team, with their team role (whoever may see the team)',
          params: TeamParams,
          querystring: ListTeamMembersQuery,
          response: { 200: ListOf(TeamMemberSchema) },
        },
      },
      async (req) =>
        service.listTeamMembers(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.teamId,
          pageRequest(req.query),
        ),
    );

    app.put(
      '/orgs/:organizationId/teams/:teamId/members',
      {
        schema: {
          operationId: 'updateMembersInOrganizationTeam',
          tags,
          summary: 'Add and remove team members (organization admins and owners of the team)',
          params: TeamParams,
          body: UpdateTeamMembersBody,
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        await service.updateTeamMembers(ctx, req.principal, req.params.organizationId, req.params.teamId, req.body);
        return reply.status(204).send(null);
      },
    );

    app.put(
      '/orgs/:organizationId/teams/:teamId/members/:userId',
      {
        schema: {
          operationId: 'addMemberToOrganizationTeamById',
          tags,
          summary: 'Add a member to a team, or change their team role',
          params: TeamMemberParams,
          body: AddTeamMemberBody,
          response: { 204: Type.Null() },
        },
        // GitBook's body is optional here: no body at all means "a plain member".
        preValidation: async (req) => {
          req.body ??= {};
        },
      },
      async (req, reply) => {
        const { organizationId, teamId, userId } = req.params;
        await service.addTeamMember(ctx, req.principal, organizationId, teamId, userId, req.body.role);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/orgs/:organizationId/teams/:teamId/members/:userId',
      {
        schema: {
          operationId: 'deleteMemberFromOrganizationTeamById',
          tags,
          summary: 'Remove a member from a team: 205 when removed, 204 when they were not in it',
          params: TeamMemberParams,
          response: { 204: Type.Null(), 205: Type.Null() },
        },
      },
      async (req, reply) => {
        const { organizationId, teamId, userId } = req.params;
        const removed = await service.removeTeamMember(ctx, req.principal, organizationId, teamId, userId);
        return reply.status(removed ? 205 : 204).send(null);
      },
    );
  };
