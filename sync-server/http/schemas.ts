import { Type } from 'typebox';
import { ROLES, type Role } from '../../shared/roles';

/**
 * Schemas shared by several resources. Each mirrors the component of the same
 * name in GitBook's OpenAPI spec, so clients of that API parse our answers.
 */
export const Timestamp = Type.String({ format: 'date-time' });
export const Url = Type.String({ format: 'uri' });

/** Path ids: GitBook's `^[a-zA-Z0-9_-]+$`, bounded so a huge id is a 400, not a query. */
export const EntityId = Type.String({ pattern: '^[a-zA-Z0-9_-]+$', minLength: 1, maxLength: 64 });

/** GitBook's MemberRole, highest first (shared/roles.ts, which the app uses too). */
type RoleName = Role;
const ROLE_NAMES: RoleName[] = [...ROLES];

/*
 * Roles are written as one `enum` (with a nullable `type` where null is
 * allowed) rather than a union of literals: the response serializer must run
 * a validator to pick the branch of an anyOf, on every response, which cost a
 * measurable share of GET space throughput.
 */
export const RoleSchema = Type.Unsafe<RoleName>({
  type: 'string',
  enum: ROLE_NAMES,
  description: 'admin > create > review > edit > comment > read',
});
export const RoleOrGuest = Type.Unsafe<RoleName | null>({
  type: ['string', 'null'],
  enum: [...ROLE_NAMES, null],
  description: 'A role, or null for guests',
});
export const DefaultLevel = Type.Unsafe<RoleName | 'inherit' | null>({
  type: ['string', 'null'],
  enum: [...ROLE_NAMES, 'inherit', null],
  description:
    'Default role of organization members on this content; "inherit" follows the parent collection or organization',
});

export const UserSchema = Type.Object({
  object: Type.Literal('user'),
  id: Type.String(),
  displayName: Type.String(),
  email: Type.Optional(Type.String()),
  photoURL: Type.Optional(Type.String()),
  urls: Type.Object({ location: Url }),
});

/** `{type: 'space', space}` / `{type: 'collection', collection}` references in move positions. */
export const ContentPointer = Type.Union([
  Type.Object({ type: Type.Literal('space'), space: EntityId }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('collection'), collection: EntityId }, { additionalProperties: false }),
]);
export const ContentPosition = Type.Object(
  { before: Type.Optional(ContentPointer), after: Type.Optional(ContentPointer) },
  { additionalProperties: false, description: 'Where to place the moved item among its new siblings' },
);

export const OrgParams = Type.Object({ organizationId: EntityId });
