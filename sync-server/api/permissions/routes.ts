import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context';
import { ListOf, pageRequest } from '../../http/paging';
import type { GrantPrincipal, GrantTarget } from '../../store/content-grants';
import {
  CollectionParams,
  CollectionTeamParams,
  CollectionUserParams,
  InviteBody,
  ListPermissionsQuery,
  SetPermissionBody,
  SpaceParams,
  SpaceTeamParams,
  SpaceUserParams,
  TeamPermissionSchema,
  UserPermissionSchema,
} from './schemas';
import * as service from './service';

/** The operation ids of one kind of content, as GitBook names them. */
const OPERATIONS = {
  space: {
    Params: SpaceParams,
    UserParams: SpaceUserParams,
    TeamParams: SpaceTeamParams,
    listUsers: 'listUserPermissionsInSpace',
    listTeams: 'listTeamPermissionsInSpace',
    invite: 'inviteToSpace',
    updateUser: 'updateUserPermissionInSpace',
    updateTeam: 'updateTeamPermissionInSpace',
    removeUser: 'removeUserFromSpace',
    removeTeam: 'removeTeamFromSpace',
  },
  collection: {
    Params: CollectionParams,
    UserParams: CollectionUserParams,
    TeamParams: CollectionTeamParams,
    listUsers: 'listUserPermissionsInCollection',
    listTeams: 'listTeamPermissionsInCollection',
    invite: 'inviteToCollection',
    updateUser: 'updateUserPermissionInCollection',
    updateTeam: 'updateTeamPermissionInCollection',
    removeUser: 'removeUserFromCollection',
    removeTeam: 'removeTeamFromCollection',
  },
} as const;

type Ids = { spaceId?: string; collectionId?: string; userId?: string; teamId?: string };

/** Direct access of members and teams to spaces and collections (GitBook's permissions operations). */
export const permissionRoutes =
  (ctx: AppContext): FastifyPluginAsyncTypebox =>
  async (app) => {
    for (const kind of ['space', 'collection'] as const) {
      const ops = OPERATIONS[kind];
      const base = kind === 'space' ? '/spaces/:spaceId/permissions' : '/collections/:collectionId/permissions';
      const tags = kind === 'space' ? ['Spaces', 'Permissions'] : ['Collections', 'Permissions'];
      const targetOf = (params: Ids): GrantTarget => ({
        type: kind,
        id: (kind === 'space' ? params.spaceId : params.collectionId)!,
      });

      app.get(
        `${base}/users`,
        {
          schema: {
            operationId: ops.listUsers,
            tags,
            summary: `Members with a direct grant on the ${kind} (whoever sees it)`,
            params: ops.Params,
            querystring: ListPermissionsQuery,
            response: { 200: ListOf(UserPermissionSchema) },
          },
        },
        async (req) => service.listUserPermissions(ctx, req.principal, targetOf(req.params), pageRequest(req.query)),
      );

      app.get(
        `${base}/teams`,
        {
          schema: {
            operationId: ops.listTeams,
            tags,
            summary: `Teams with a direct grant on the ${kind} (whoever sees it)`,
            params: ops.Params,
            querystring: ListPermissionsQuery,
            response: { 200: ListOf(TeamPermissionSchema) },
          },
        },
        async (req) => service.listTeamPermissions(ctx, req.principal, targetOf(req.params), pageRequest(req.query)),
      );

      app.post(
        base,
        {
          schema: {
            operationId: ops.invite,
            tags,
            summary: `Grant a role on the ${kind} to members and teams (its admins); role null withdraws it`,
            params: ops.Params,
            body: InviteBody,
            response: { 204: Type.Null() },
          },
        },
        async (req, reply) => {
          await service.invite(ctx, req.principal, targetOf(req.params), req.body);
          return reply.status(204).send(null);
        },
      );

      for (const principal of ['user', 'team'] as const satisfies readonly GrantPrincipal[]) {
        const path = `${base}/${principal}s/:${principal}Id`;
        const idOf = (params: Ids) => (principal === 'user' ? params.userId : params.teamId)!;
        const params = principal === 'user' ? ops.UserParams : ops.TeamParams;

        app.patch(
          path,
          {
            schema: {
              operationId: principal === 'user' ? ops.updateUser : ops.updateTeam,
              tags,
              summary: `Set a ${principal}'s role on the ${kind} (its admins); null withdraws it`,
              params,
              body: SetPermissionBody,
              response: { 204: Type.Null() },
            },
          },
          async (req, reply) => {
            const ids = req.params as Ids;
            await service.setPermission(ctx, req.principal, targetOf(ids), principal, idOf(ids), req.body.role);
            return reply.status(204).send(null);
          },
        );

        app.delete(
          path,
          {
            schema: {
              operationId: principal === 'user' ? ops.removeUser : ops.removeTeam,
              tags,
              summary: `Withdraw a ${principal}'s grant on the ${kind}: 205 when withdrawn, 204 when there was none`,
              params,
              response: { 204: Type.Null(), 205: Type.Null() },
            },
          },
          async (req, reply) => {
            const ids = req.params as Ids;
            const removed = await service.removePermission(ctx, req.principal, targetOf(ids), principal, idOf(ids));
            return reply.status(removed ? 205 : 204).send(null);
          },
        );
      }
    }
  };
