import { Type, type Static } from 'typebox';
import { EntityId, OrgParams, RoleOrGuest, Timestamp, Url } from '../../http/schemas';
import { TeamSchema } from '../teams/schemas';

/** GitBook's `SAMLProviderLabel`: 1..30 characters (all-blank refused). */
const Label = Type.String({ minLength: 1, maxLength: 30, pattern: '\\S' });
/** GitBook's `SAMLProviderEntityID`: the IdP's entity ID. */
const IdpEntityId = Type.String({ maxLength: 1024 });
/** GitBook's `SAMLProviderCertificate`: the IdP's signing certificate, PEM or bare base64. */
const Certificate = Type.String({ maxLength: 10000 });
/** GitBook's `URL`, restricted to http(s): a browser is sent there. */
const SsoUrl = Type.String({ format: 'uri', maxLength: 2048, pattern: '^https?://' });

/**
 * GitBook's `OrganizationSAMLProvider`. While the provider is `pending`
 * (created with a label only), `entityID` and `certificate` are empty
 * strings and `ssoURL` is `about:blank`.
 */
export const SamlProviderSchema = Type.Object({
  object: Type.Literal('saml-provider'),
  id: Type.String(),
  label: Type.String(),
  ssoURL: Url,
  entityID: Type.String(),
  certificate: Type.String(),
  defaultTeam: Type.Optional(TeamSchema),
  defaultRole: RoleOrGuest,
  createdAt: Timestamp,
  status: Type.Union([Type.Literal('active'), Type.Literal('pending')]),
  service: Type.Object({
    acsURL: Url,
    startURL: Url,
    entityID: Type.String({ description: "This server's entity ID for the provider (its metadata URL)" }),
  }),
  urls: Type.Object({ location: Url }),
});

/** GitBook's `OrganizationSSOProviderLogin`. */
export const SsoLoginSchema = Type.Object({ id: Type.String(), label: Type.String(), startURL: Url });

export const SamlProviderParams = Type.Object({ organizationId: EntityId, samlProviderId: EntityId });
export { OrgParams };

const fields = {
  label: Label,
  entityID: IdpEntityId,
  certificate: Certificate,
  ssoURL: SsoUrl,
  defaultTeam: Type.String({ maxLength: 64, description: 'Id of a team of the organization' }),
  defaultRole: RoleOrGuest,
};

export const CreateSamlProviderBody = Type.Object(
  {
    label: fields.label,
    entityID: Type.Optional(fields.entityID),
    certificate: Type.Optional(fields.certificate),
    ssoURL: Type.Optional(fields.ssoURL),
    defaultTeam: Type.Optional(fields.defaultTeam),
    defaultRole: Type.Optional(fields.defaultRole),
  },
  { additionalProperties: false },
);

/** Every field of create, each optional (PATCH). */
export const UpdateSamlProviderBody = Type.Partial(CreateSamlProviderBody, { additionalProperties: false });

export type SamlProviderBody = Static<typeof UpdateSamlProviderBody>;
