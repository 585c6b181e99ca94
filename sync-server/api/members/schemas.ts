import { Type } from 'typebox';
import { EntityId, RoleOrGuest, RoleSchema, Timestamp, UserSchema } from '../../http/schemas';
import { PagingQuery } from '../../http/paging';

/** GitBook's `OrganizationMember`. */
export const MemberSchema = Type.Object({
  object: Type.Literal('member'),
  id: Type.String({ description: 'The user id' }),
  role: RoleOrGuest,
  user: UserSchema,
  disabled: Type.Boolean(),
  joinedAt: Timestamp,
  lastSeenAt: Type.Optional(Timestamp),
  sso: Type.Boolean(),
  spaces: Type.Number({ description: 'Spaces of this organization the member has a direct grant on' }),
  teams: Type.Number({ description: 'Teams of this organization the member belongs to' }),
  sites: Type.Number(),
});

/** `/orgs/:organizationId/members/:userId`. User ids are our own ids, so they share the entity id pattern. */
export const MemberParams = Type.Object({ organizationId: EntityId, userId: EntityId });

/** Paging plus GitBook's member filters and sort options. */
export const ListMembersQuery = Type.Object({
  ...PagingQuery,
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
  role: Type.Optional(
    Type.Union([RoleSchema, Type.Literal('guest')], {
      description: 'Only members with this role ("guest" for guests)',
    }),
  ),
  search: Type.Optional(
    Type.String({ maxLength: 256, description: 'Case-insensitive match on display name and email' }),
  ),
  sort: Type.Optional(
    Type.Union([Type.Literal('joinedAt'), Type.Literal('lastSeenAt'), Type.Literal('name')], {
      default: 'joinedAt',
      description: '"lastSeenAt" lists only members who have been seen',
    }),
  ),
});

/** PATCH body: the new role, and (a Folio extension) whether the membership is disabled; an empty body changes nothing. */
export const UpdateMemberBody = Type.Object(
  {
    role: Type.Optional(Type.Union([RoleSchema, Type.Null()], { description: 'The new role, null for guest' })),
    disabled: Type.Optional(
      Type.Boolean({
        description:
          'Folio extension: true suspends the membership (no access to anything of the organization through any token, session or socket; it is kept, with its role, teams and grants, for when it is enabled again)',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The member's visitor claims (a JWT for the organization's visitor-auth sites), under both names. */
export const PingResponse = Type.Object({
  serviceVisitorClaims: Type.Optional(
    Type.String({ description: "A JWT (HS256, 1 hour) the organization's visitor-auth sites accept" }),
  ),
  gitbookVisitorClaims: Type.Optional(Type.String({ description: "The same token, under GitBook's name" })),
});
