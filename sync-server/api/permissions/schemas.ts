import { Type } from 'typebox';
import { EntityId, RoleOrGuest, RoleSchema, UserSchema } from '../../http/schemas';
import { PagingQuery } from '../../http/paging';
import { TeamSchema } from '../teams/schemas';

/** GitBook's `UserContentPermission`. */
export const UserPermissionSchema = Type.Object({ permission: RoleSchema, user: UserSchema });

/** The item of listTeamPermissionsIn*: a team and its role. */
export const TeamPermissionSchema = Type.Object({ permission: RoleSchema, team: TeamSchema });

export const SpaceParams = Type.Object({ spaceId: EntityId });
export const CollectionParams = Type.Object({ collectionId: EntityId });
export const SpaceUserParams = Type.Object({ spaceId: EntityId, userId: EntityId });
export const SpaceTeamParams = Type.Object({ spaceId: EntityId, teamId: EntityId });
export const CollectionUserParams = Type.Object({ collectionId: EntityId, userId: EntityId });
export const CollectionTeamParams = Type.Object({ collectionId: EntityId, teamId: EntityId });

export const ListPermissionsQuery = Type.Object({ ...PagingQuery });

/** `{role}`: a role, or null to withdraw the grant. */
export const SetPermissionBody = Type.Object({ role: RoleOrGuest }, { additionalProperties: false });

/** GitBook's `InviteUsersAndTeams` (at least one user or team; checked by the service). */
export const InviteBody = Type.Object(
  {
    role: RoleOrGuest,
    users: Type.Optional(Type.Array(EntityId, { minItems: 1, maxItems: 1000 })),
    teams: Type.Optional(Type.Array(EntityId, { minItems: 1, maxItems: 1000 })),
  },
  { additionalProperties: false },
);
