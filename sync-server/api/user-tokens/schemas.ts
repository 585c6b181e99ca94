import { Type } from 'typebox';
import { Timestamp } from '../../http/schemas';

/** A credential of the caller as Folio lists it: never its secret, which is shown once when it is issued. */
export const UserTokenSchema = Type.Object({
  object: Type.Literal('api-token'),
  id: Type.String(),
  label: Type.String({ description: 'What the token was issued for (may be empty); a device token: the device name' }),
  kind: Type.Union([Type.Literal('api'), Type.Literal('session'), Type.Literal('device')], {
    description: "'api': a token for scripts (CLI); 'session': a web app sign-in (cookie); 'device': a desktop app",
  }),
  createdAt: Timestamp,
  lastUsedAt: Type.Optional(Timestamp),
  expiresAt: Type.Optional(
    Type.String({ format: 'date-time', description: 'When a session or device token stops working' }),
  ),
  signInMethod: Type.Optional(
    Type.String({ description: 'How the person signed in to get it: saml, oidc, email or token' }),
  ),
  userAgent: Type.Optional(Type.String({ description: 'The browser or app that signed in' })),
  current: Type.Boolean({ description: 'Whether this is the token (or session cookie) of the request' }),
});

export const TokenParams = Type.Object({ tokenId: Type.String({ minLength: 1, maxLength: 100 }) });
