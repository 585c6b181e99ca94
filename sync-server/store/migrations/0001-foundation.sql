-- Foundation: users, API tokens, organizations, members, teams, collections,
-- spaces, content permissions and invites. Timestamps are timestamptz; ids are
-- random url-safe strings made by the application.

CREATE TABLE users (
  id text PRIMARY KEY,
  display_name text NOT NULL,
  email text UNIQUE,
  photo_url text,
  instance_admin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Tokens are stored as sha256 hex digests; the plain token is shown once.
CREATE TABLE api_tokens (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  label text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);

CREATE TABLE organizations (
  id text PRIMARY KEY,
  title text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  email_domains text[] NOT NULL DEFAULT '{}',
  hostname text UNIQUE,
  type text NOT NULL DEFAULT 'business',
  use_case text,
  community_type text,
  default_role text,
  default_content jsonb,
  sso boolean NOT NULL DEFAULT false,
  ai boolean NOT NULL DEFAULT false,
  invite_links boolean NOT NULL DEFAULT true,
  logo_url text
);

-- role NULL = guest (sees only what is shared with them directly).
CREATE TABLE members (
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  role text,
  disabled boolean NOT NULL DEFAULT false,
  sso boolean NOT NULL DEFAULT false,
  joined_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX members_user ON members(user_id);
CREATE INDEX members_joined ON members(organization_id, joined_at, user_id);

CREATE TABLE teams (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  title text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX teams_org ON teams(organization_id, created_at, id);

-- is_owner marks the members who manage the team (the `owner` list filter).
CREATE TABLE team_members (
  team_id text NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  is_owner boolean NOT NULL DEFAULT false,
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members(user_id);

-- default_level: a role, NULL (no default), or 'inherit' (from the parent collection / org).
CREATE TABLE collections (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  parent_id text REFERENCES collections(id) ON DELETE CASCADE,
  title text NOT NULL DEFAULT '',
  description text,
  default_level text DEFAULT 'inherit',
  position text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX collections_org ON collections(organization_id, parent_id, position);

CREATE TABLE spaces (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  parent_id text REFERENCES collections(id) ON DELETE SET NULL,
  title text NOT NULL DEFAULT '',
  emoji text,
  visibility text NOT NULL DEFAULT 'private',
  edit_mode text NOT NULL DEFAULT 'live',
  language text,
  default_level text DEFAULT 'inherit',
  position text NOT NULL,
  revision text NOT NULL,
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX spaces_org ON spaces(organization_id, parent_id, position);
CREATE INDEX spaces_deleted ON spaces(deleted_at) WHERE deleted_at IS NOT NULL;

-- Direct grants on a space or collection, to a user or a team.
CREATE TABLE content_permissions (
  resource_type text NOT NULL CHECK (resource_type IN ('space', 'collection')),
  resource_id text NOT NULL,
  principal_type text NOT NULL CHECK (principal_type IN ('user', 'team')),
  principal_id text NOT NULL,
  role text NOT NULL,
  PRIMARY KEY (resource_type, resource_id, principal_type, principal_id)
);
CREATE INDEX content_permissions_principal ON content_permissions(principal_type, principal_id);

-- Pending invitations by email; accepted when the invitee joins with the token.
CREATE TABLE email_invites (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email text NOT NULL,
  role text,
  sso boolean NOT NULL DEFAULT false,
  invited_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  accepted_at timestamptz,
  UNIQUE (organization_id, email)
);

-- Shareable invite links: to the organization (role) or to a space/collection (level).
CREATE TABLE link_invites (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  role text,
  resource_type text CHECK (resource_type IN ('space', 'collection')),
  resource_id text,
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX link_invites_org ON link_invites(organization_id, created_at, id);
