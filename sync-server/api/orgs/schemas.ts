import { Type } from 'typebox';
import { RoleOrGuest, Timestamp, Url } from '../../http/schemas';

const Title = Type.String({ minLength: 2, maxLength: 255, pattern: '\\S.*\\S' });
const Hostname = Type.String({ minLength: 3, maxLength: 32, pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$' });
const EmailDomain = Type.String({
  minLength: 3,
  maxLength: 253,
  pattern: '^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)+$',
});
const DefaultContent = Type.Object(
  { type: Type.Literal('site'), site: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

const b = Type.Boolean();
export const OrganizationSchema = Type.Object({
  object: Type.Literal('organization'),
  id: Type.String(),
  title: Type.String(),
  createdAt: Timestamp,
  emailDomains: Type.Array(Type.String()),
  hostname: Type.Optional(Type.String()),
  type: Type.String(),
  useCase: Type.Optional(Type.String()),
  communityType: Type.Optional(Type.String()),
  defaultRole: RoleOrGuest,
  defaultContent: Type.Optional(Type.Object({ type: Type.String(), site: Type.String() })),
  sso: b,
  ai: b,
  inviteLinks: b,
  plan: Type.String(),
  mergeRules: Type.Object({ type: Type.String() }),
  trial: Type.Object({ status: Type.String(), count: Type.Integer() }),
  urls: Type.Object({ location: Url, app: Url, logo: Type.Optional(Type.String()) }),
  permissions: Type.Object({
    view: b,
    access: b,
    admin: b,
    ownTeam: b,
    createContent: b,
    createOpenAPISpec: b,
    manageTranslations: Type.Optional(Type.Boolean({ description: 'Folio: may manage translations and the glossary' })),
    ingestConversations: b,
    viewBilling: b,
    listMembers: b,
    listTeams: b,
    listIntegrations: b,
    listInstallations: b,
    installIntegration: b,
  }),
});

export const CreateOrganizationBody = Type.Object(
  {
    title: Title,
    emailDomains: Type.Optional(Type.Array(EmailDomain, { maxItems: 50 })),
    // Accepted for client compatibility; Folio has no onboarding flow to feed.
    onboardingPreferences: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: false },
);

export const UpdateOrganizationBody = Type.Object(
  {
    title: Type.Optional(Title),
    emailDomains: Type.Optional(Type.Array(EmailDomain, { maxItems: 50 })),
    hostname: Type.Optional(Hostname),
    defaultRole: Type.Optional(RoleOrGuest),
    defaultContent: Type.Optional(Type.Union([DefaultContent, Type.Null()])),
    logo: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()])),
    sso: Type.Optional(Type.Boolean()),
    ai: Type.Optional(Type.Boolean()),
    inviteLinks: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
