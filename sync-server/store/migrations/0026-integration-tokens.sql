-- Integration and installation API tokens (issue 32): what GitBook's runtime receives as
-- `environment.apiTokens.integration` (acts as the integration) and `.installation` (acts as one
-- installation in one organization). Only the keyed digest of a token is stored
-- (identity/token-digest.ts); every token expires (an hour after it is minted) and the purge of
-- expired sign-ins deletes it then. Unpublishing the integration or uninstalling the installation
-- deletes its tokens at once (ON DELETE CASCADE).
CREATE TABLE integration_tokens (
  token_hash text PRIMARY KEY,
  integration_name text NOT NULL REFERENCES integrations(name) ON DELETE CASCADE,
  -- null: the integration's own token; else the installation the token acts as.
  installation_id text REFERENCES integration_installations(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX integration_tokens_expiry ON integration_tokens (expires_at);
CREATE INDEX integration_tokens_of_installation ON integration_tokens (installation_id);
