import { Type } from 'typebox';
import { Timestamp } from '../../http/schemas';

/** A token of the caller as Folio lists it: never its secret, which is shown once when it is issued. */
export const UserTokenSchema = Type.Object({
  object: Type.Literal('api-token'),
  id: Type.String(),
  label: Type.String({ description: 'What the token was issued for (may be empty)' }),
  createdAt: Timestamp,
  lastUsedAt: Type.Optional(Timestamp),
  current: Type.Boolean({ description: 'Whether this is the token of the request' }),
});

export const TokenParams = Type.Object({ tokenId: Type.String({ minLength: 1, maxLength: 100 }) });
