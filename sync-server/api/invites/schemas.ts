import { Type } from 'typebox';
import { EntityId, RoleOrGuest } from '../../http/schemas';
import { CollectionSchema } from '../collections/schemas';
import { SpaceSchema } from '../spaces/schemas';

/** Most addresses one inviteUsersToOrganization call may carry. */
export const MAX_INVITES_PER_CALL = 100;

const Email = Type.String({ format: 'email', maxLength: 254 });

/** `/orgs/:organizationId/.../:inviteId` (link invites and email invites alike). */
export const InviteParams = Type.Object({ organizationId: EntityId, inviteId: EntityId });

/** inviteUsersToOrganization body: addresses (optionally with their own role), a default role and the SSO flag. */
export const InviteUsersBody = Type.Object(
  {
    emails: Type.Array(
      Type.Union([Email, Type.Object({ email: Email, role: RoleOrGuest }, { additionalProperties: false })], {
        description: 'An address, or an address with its own role',
      }),
      { minItems: 1, maxItems: MAX_INVITES_PER_CALL },
    ),
    // Invitees without their own role get this one; default: the organization's default role, else "read".
    role: Type.Optional(RoleOrGuest),
    sso: Type.Optional(Type.Boolean({ description: 'Invite as SSO members' })),
  },
  { additionalProperties: false },
);

/** `users`: members added right away; `invited`: emails sent. */
export const InviteUsersResponse = Type.Object({
  users: Type.Array(Type.String(), {
    description: 'Ids of users who became members right away: none, since every invite waits for its acceptance',
  }),
  invited: Type.Number({ description: 'Number of email invitations sent (pending until accepted)' }),
});

/** joinOrganizationWithInvite answers an empty object. */
export const JoinResponse = Type.Object({});

/** GitBook's InviteLinkToOrganization. */
export const OrgInviteLinkSchema = Type.Object({
  object: Type.Literal('invite'),
  id: Type.String(),
  role: RoleOrGuest,
  redundant: Type.Boolean(),
});

const Redundant = Type.Boolean({
  description: 'Always false: Folio does not pre-compute whether a link would change anything',
});

/** GitBook's InviteLinkToSpace / InviteLinkToCollection. */
export const SpaceInviteLinkSchema = Type.Object({
  object: Type.Literal('invite'),
  id: Type.String(),
  level: RoleOrGuest,
  redundant: Redundant,
  space: SpaceSchema,
});
export const CollectionInviteLinkSchema = Type.Object({
  object: Type.Literal('invite'),
  id: Type.String(),
  level: RoleOrGuest,
  redundant: Redundant,
  collection: CollectionSchema,
});

/** GitBook's OrganizationInviteLink: to the organization, a space or a collection. */
export const InviteLinkSchema = Type.Union([OrgInviteLinkSchema, SpaceInviteLinkSchema, CollectionInviteLinkSchema]);

/** createOrganizationInvite body (GitBook's CreateOrganizationInvite). */
export const CreateInviteLinkBody = Type.Union([
  Type.Object(
    { role: RoleOrGuest },
    { additionalProperties: false, description: 'A link to join the organization with this role (null: guest)' },
  ),
  Type.Object(
    { level: RoleOrGuest, space: EntityId },
    { additionalProperties: false, description: 'A link to get this level on a space' },
  ),
  Type.Object(
    { level: RoleOrGuest, collection: EntityId },
    { additionalProperties: false, description: 'A link to get this level on a collection' },
  ),
]);

/** updateOrganizationInviteById body. */
export const UpdateInviteLinkBody = Type.Union([
  Type.Object({ role: RoleOrGuest }, { additionalProperties: false, description: 'For organization links' }),
  Type.Object({ level: RoleOrGuest }, { additionalProperties: false, description: 'For space and collection links' }),
]);
