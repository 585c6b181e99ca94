/**
 * A refused SAML sign-in: the HTTP status and a message for the person (no
 * secrets, no XML). Its own small module: the ACS's pre-parse throws it
 * without loading node-saml.
 */
export class SamlRefusal extends Error {
  constructor(
    readonly status: 400 | 403 | 409 | 413 | 503,
    message: string,
  ) {
    super(message);
  }
}
