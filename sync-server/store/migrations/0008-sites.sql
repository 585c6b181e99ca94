-- Docs sites: a site publishes spaces (site spaces), optionally organized in
-- sections, which may sit in section groups. Ordering uses fractional-index
-- keys (`position`), compared bytewise in code. Defaults (default section,
-- default site space) are stored as ids and resolved at read time, so a
-- deleted default simply falls back to the first item.

CREATE TABLE sites (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  type text NOT NULL DEFAULT 'basic',
  title text NOT NULL,
  visibility text NOT NULL DEFAULT 'public',
  published boolean NOT NULL DEFAULT false,
  -- Custom hostname the published site answers on (Host header); unique across the instance.
  hostname text UNIQUE,
  basename text,
  proxy text,
  agents_context text NOT NULL DEFAULT 'included',
  adaptive_enabled boolean NOT NULL DEFAULT false,
  -- json, not jsonb: the visitor schema keeps the key order its author wrote.
  adaptive_schema json,
  adaptive_schema_updated_at timestamptz,
  -- Secret of `share-link` URLs, and the HS256 key of visitor JWTs.
  share_key text NOT NULL,
  visitor_key text NOT NULL,
  default_section_id text,
  -- Default site space at the root level (sites without sections).
  default_site_space_id text,
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sites_org ON sites(organization_id, created_at);

CREATE TABLE site_section_groups (
  id text PRIMARY KEY,
  site_id text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  title text NOT NULL,
  icon text,
  position text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX site_section_groups_site ON site_section_groups(site_id);

CREATE TABLE site_sections (
  id text PRIMARY KEY,
  site_id text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  -- A section in a group is ordered among the group's sections; otherwise among top-level items.
  group_id text REFERENCES site_section_groups(id) ON DELETE SET NULL,
  title text NOT NULL,
  description text,
  path text NOT NULL,
  icon text,
  condition text,
  default_site_space_id text,
  position text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX site_sections_site ON site_sections(site_id);

CREATE TABLE site_spaces (
  id text PRIMARY KEY,
  site_id text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  -- NULL = root level (a site without sections).
  section_id text REFERENCES site_sections(id) ON DELETE CASCADE,
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  path text NOT NULL,
  condition text,
  position text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX site_spaces_site ON site_spaces(site_id);
CREATE INDEX site_spaces_space ON site_spaces(space_id);
