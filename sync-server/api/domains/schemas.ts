import { Type } from 'typebox';
import { EntityId, Timestamp } from '../../http/schemas';

/** A DNS name: two or more labels of letters, digits and inner hyphens (case-insensitive). */
export const DomainName = Type.String({
  minLength: 3,
  maxLength: 253,
  pattern: '^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$',
});

export const DomainParams = Type.Object({ organizationId: EntityId, domain: DomainName });

export const AddDomainBody = Type.Object({ domain: DomainName }, { additionalProperties: false });

/** A domain claim of an organization, as the API shows it (a Folio extension). */
export const DomainClaimSchema = Type.Object({
  object: Type.Literal('domain'),
  domain: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('verified')]),
  /** How it was proved: a DNS TXT record, or the instance admin's approval. */
  verifiedBy: Type.Optional(Type.Union([Type.Literal('dns'), Type.Literal('admin')])),
  verifiedAt: Type.Optional(Timestamp),
  createdAt: Timestamp,
  /** Whether the domain is one of the organization's `emailDomains`. */
  emailDomain: Type.Boolean(),
  /** The TXT record that proves the claim. */
  dnsRecord: Type.Object({ type: Type.Literal('TXT'), name: Type.String(), value: Type.String() }),
});
