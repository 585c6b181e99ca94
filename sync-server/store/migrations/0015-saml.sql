-- SAML single sign-on: one row per identity provider (IdP) an organization
-- trusts. entity_id, sso_url and certificate are the IdP's (what its metadata
-- says); the service provider side (this server's entity ID, ACS and start
-- URLs) is derived from the row id and the public URL, never stored.
-- A provider is 'pending' until all three IdP fields are set.
CREATE TABLE saml_providers (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  label text NOT NULL,
  entity_id text,
  sso_url text,
  certificate text,
  -- Where people signing in for the first time land: a team (dropped with it) and a role (NULL = guest).
  default_team_id text REFERENCES teams(id) ON DELETE SET NULL,
  default_role text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX saml_providers_org ON saml_providers (organization_id, created_at, id);

-- Replay protection: the id of every assertion accepted, until it expires.
-- The primary key makes "accept once" hold across server processes.
CREATE TABLE saml_assertions_seen (
  id text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX saml_assertions_seen_expiry ON saml_assertions_seen (expires_at);
