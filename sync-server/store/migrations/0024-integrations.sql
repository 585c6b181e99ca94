-- Integrations (GitBook's "Integrations" group, issue 32): integrations published by an
-- organization, their installations in organizations, on spaces and on sites, and the events
-- dispatched to them. A name is global, as in GitBook (`/v1/integrations/{integrationName}`).
CREATE TABLE integrations (
  name text PRIMARY KEY,
  -- The publishing organization (the integration's `owner`); its admins publish and unpublish it.
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  version integer NOT NULL DEFAULT 1,
  -- The published manifest: title, description, summary, icon, previewImages, target, visibility,
  -- scopes, categories, blocks, contentSources, configurations, externalLinks, contentSecurityPolicy.
  manifest jsonb NOT NULL,
  -- The bundled script (a Workers-style module), run in the sandbox.
  script text,
  -- The integration's secrets as one JSON object, sealed by store/secret-box.ts; never returned.
  secrets_sealed text,
  -- Development mode: events go to this tunnel (the owner organization's only, unless dev_all).
  dev_tunnel_url text,
  dev_all boolean NOT NULL DEFAULT false,
  published_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX integrations_of_organization ON integrations (organization_id);

-- An integration installed in an organization; spaces and sites are then selected under it.
CREATE TABLE integration_installations (
  id text PRIMARY KEY,
  integration_name text NOT NULL REFERENCES integrations(name) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  status text NOT NULL,
  configuration jsonb NOT NULL DEFAULT '{}',
  external_ids jsonb NOT NULL DEFAULT '[]',
  space_selection text NOT NULL DEFAULT 'selected',
  site_selection text NOT NULL DEFAULT 'selected',
  created_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (integration_name, organization_id)
);

CREATE TABLE integration_space_installations (
  installation_id text NOT NULL REFERENCES integration_installations(id) ON DELETE CASCADE,
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  status text NOT NULL,
  configuration jsonb NOT NULL DEFAULT '{}',
  external_ids jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (installation_id, space_id)
);
CREATE INDEX integration_space_installations_of_space ON integration_space_installations (space_id);

CREATE TABLE integration_site_installations (
  installation_id text NOT NULL REFERENCES integration_installations(id) ON DELETE CASCADE,
  site_id text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  status text NOT NULL,
  configuration jsonb NOT NULL DEFAULT '{}',
  external_ids jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (installation_id, site_id)
);
CREATE INDEX integration_site_installations_of_site ON integration_site_installations (site_id);

-- Every event dispatched to an integration, with its outcome and a trace of log entries.
CREATE TABLE integration_events (
  id text PRIMARY KEY,
  integration_name text NOT NULL REFERENCES integrations(name) ON DELETE CASCADE,
  installation_id text,
  space_id text,
  site_id text,
  type text NOT NULL,
  payload jsonb NOT NULL,
  -- pending, success, failed (GitBook's event status).
  status text NOT NULL,
  trace jsonb NOT NULL DEFAULT '[]',
  job_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX integration_events_of_integration ON integration_events (integration_name, created_at);
