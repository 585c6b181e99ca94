-- Sign-in: every way of signing in ends in a credential that is an api_tokens
-- row, so the one token lookup, the read cache, the revoke route and the
-- socket access sweep apply to all of them.
--   kind 'api'      a token made by the CLI or pasted into scripts (no expiry)
--   kind 'session'  the web app's HttpOnly cookie (expires)
--   kind 'device'   a desktop app's token, handed over after a PKCE exchange
-- sign_in_method says how the person proved who they are (saml, oidc, email, token).
ALTER TABLE api_tokens ADD COLUMN kind text NOT NULL DEFAULT 'api';
ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_kind CHECK (kind IN ('api', 'session', 'device'));
ALTER TABLE api_tokens ADD COLUMN expires_at timestamptz;
ALTER TABLE api_tokens ADD COLUMN sign_in_method text;
ALTER TABLE api_tokens ADD COLUMN user_agent text;
CREATE INDEX api_tokens_expiry ON api_tokens (expires_at) WHERE expires_at IS NOT NULL;

-- Short-lived state of a sign-in in progress, used once: a SAML AuthnRequest
-- id (InResponseTo), an OpenID Connect state with its nonce and PKCE verifier,
-- an email link (keyed by the digest of its secret), a device authorization
-- code. Taking a row deletes it, so a second use finds nothing, whichever
-- process it reaches.
CREATE TABLE sign_in_requests (
  id text PRIMARY KEY,
  kind text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sign_in_requests_expiry ON sign_in_requests (expires_at);
