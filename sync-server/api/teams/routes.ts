import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, pageRequest } from '../../http/paging';
import {
  CreateTeamBody,
  ListMemberTeamsQuery,
  ListTeamsQuery,
  MemberParams,
  MemberTeamSchema,
  OrgParams,
  TeamParams,
  TeamSchema,
  UpdateTeamBody,
} from './schemas';
import * as teams from './service';
import { teamMemberRoutes } from './team-member-routes';

const tags = ['Teams'];

/** Teams of an organization, and the teams of one member (GitBook tags these under organization-members). */
export const teamRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/teams',
      {
        schema: {
          operationId: 'listTeamsInOrganizationById',
          tags,
          params: OrgParams,
          querystring: ListTeamsQuery,
          response: { 200: ListOf(TeamSchema) },
        },
      },
      async (req) => teams.listTeams(ctx, req.principal, req.params.organizationId, req.query, pageRequest(req.query)),
    );

    app.put(
      '/orgs/:organizationId/teams',
      {
        schema: {
          operationId: 'createOrganizationTeam',
          tags,
          summary: 'Create a team (organization admins); members must already belong to the organization',
          params: OrgParams,
          body: CreateTeamBody,
          response: { 201: TeamSchema },
        },
      },
      async (req, reply) => {
        const team = await teams.createTeam(ctx, req.principal, req.params.organizationId, req.body);
        return reply
          .status(201)
          .header('location', ctx.urls.api(`/orgs/${req.params.organizationId}/teams/${team.id}`))
          .send(team);
      },
    );

    app.get(
      '/orgs/:organizationId/teams/:teamId',
      { schema: { operationId: 'getTeamInOrganizationById', tags, params: TeamParams, response: { 200: TeamSchema } } },
      async (req) => teams.getTeam(ctx, req.principal, req.params.organizationId, req.params.teamId),
    );

    app.patch(
      '/orgs/:organizationId/teams/:teamId',
      {
        schema: {
          operationId: 'updateTeamInOrganizationById',
          tags,
          summary: 'Rename a team (organization admins and owners of the team)',
          params: TeamParams,
          body: UpdateTeamBody,
          response: { 200: TeamSchema },
        },
      },
      async (req) => teams.updateTeam(ctx, req.principal, req.params.organizationId, req.params.teamId, req.body),
    );

    app.delete(
      '/orgs/:organizationId/teams/:teamId',
      {
        schema: {
          operationId: 'removeTeamFromOrganizationById',
          tags,
          summary: 'Delete a team and its content grants (organization admins); 204 also when it does not exist',
          params: TeamParams,
          response: { 204: Type.Null() },
        },
      },
      async (req, reply) => {
        await teams.deleteTeam(ctx, req.principal, req.params.organizationId, req.params.teamId);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/orgs/:organizationId/members/:userId/teams',
      {
        schema: {
          operationId: 'listTeamsForOrganizationMember',
          tags: ['Members', ...tags],
          summary: 'Teams of a member (the member themself or organization admins)',
          params: MemberParams,
          querystring: ListMemberTeamsQuery,
          response: { 200: ListOf(MemberTeamSchema) },
        },
      },
      async (req) =>
        teams.listMemberTeams(
          ctx,
          req.principal,
          req.params.organizationId,
          req.params.userId,
          req.query.title,
          pageRequest(req.query),
        ),
    );

    await app.register(teamMemberRoutes(ctx));
  };
