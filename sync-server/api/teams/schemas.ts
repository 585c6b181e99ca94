import { Type } from 'typebox';
import { EntityId, OrgParams, Timestamp } from '../../http/schemas';
import { PagingQuery } from '../../http/paging';

/** GitBook's `OrganizationTeamTitle`: 1..64 characters; we also refuse an all-blank title. */
const TeamTitle = Type.String({ minLength: 1, maxLength: 64, pattern: '\\S' });

/** A case-insensitive "contains" filter; longer than a title can be would never match, so it is bounded. */
const TitleFilter = Type.String({
  maxLength: 64,
  description: 'Only teams whose title contains this text (case insensitive)',
});

/** GitBook's `OrganizationTeam`. */
export const TeamSchema = Type.Object({
  object: Type.Literal('team'),
  id: Type.String(),
  title: Type.String(),
  members: Type.Integer({ description: 'Number of members of the team' }),
  spaces: Type.Number({ description: 'Number of spaces the team has been granted access to' }),
  createdAt: Timestamp,
  permissions: Type.Object({ admin: Type.Boolean(), view: Type.Boolean() }),
});

/** One item of listTeamsForOrganizationMember: the team and the member's place in it. */
export const MemberTeamSchema = Type.Object({
  team: TeamSchema,
  member: Type.Object({ role: Type.Union([Type.Literal('owner'), Type.Literal('member')]) }),
});

export const TeamParams = Type.Object({ organizationId: EntityId, teamId: EntityId });
export const MemberParams = Type.Object({ organizationId: EntityId, userId: EntityId });
export { OrgParams };

export const ListTeamsQuery = Type.Object({
  ...PagingQuery,
  // A member's user id: only the teams they own.
  owner: Type.Optional(EntityId),
  title: Type.Optional(TitleFilter),
});

export const ListMemberTeamsQuery = Type.Object({ ...PagingQuery, title: Type.Optional(TitleFilter) });

export const CreateTeamBody = Type.Object(
  {
    title: TeamTitle,
    members: Type.Optional(
      Type.Array(EntityId, { maxItems: 1000, description: 'User ids of organization members to add to the team' }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateTeamBody = Type.Object({ title: TeamTitle }, { additionalProperties: false });
