import { Type } from 'typebox';
import { EntityId } from '../../http/schemas';
import { PagingQuery } from '../../http/paging';
import { MemberSchema } from '../members/schemas';

/** GitBook's `TeamMemberRole`: owners manage the team's members. */
export const TeamMemberRole = Type.Union([Type.Literal('owner'), Type.Literal('member')]);

/** GitBook's `OrganizationTeamMember`. */
export const TeamMemberSchema = Type.Object({
  organization: MemberSchema,
  team: Type.Object({ role: TeamMemberRole }),
  permissions: Type.Object({ view: Type.Boolean() }),
});

export const TeamMemberParams = Type.Object({ organizationId: EntityId, teamId: EntityId, userId: EntityId });

export const ListTeamMembersQuery = Type.Object({ ...PagingQuery });

/** A user id, or the email of an organization member. */
const MemberRef = Type.String({ minLength: 1, maxLength: 320, description: 'A user id or an email' });

/** GitBook's `UpdateMembersInOrganizationTeam`: a user in both lists ends up removed. */
export const UpdateTeamMembersBody = Type.Object(
  {
    add: Type.Optional(Type.Array(MemberRef, { maxItems: 1000 })),
    remove: Type.Optional(Type.Array(MemberRef, { maxItems: 1000 })),
    memberships: Type.Optional(
      Type.Record(Type.String({ maxLength: 320 }), Type.Object({ role: TeamMemberRole }), { maxProperties: 1000 }),
    ),
  },
  { additionalProperties: false },
);

export const AddTeamMemberBody = Type.Object({ role: Type.Optional(TeamMemberRole) }, { additionalProperties: false });
