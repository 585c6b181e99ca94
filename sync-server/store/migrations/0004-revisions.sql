-- Revisions: immutable materialized snapshots of a content document.
-- Page objects are content-addressed (sha256 of their JSON without children),
-- so revisions share every page that did not change instead of copying it.
CREATE TABLE revision_pages (
  hash text PRIMARY KEY,
  page jsonb NOT NULL
);

-- tree: the ordered page tree as [{"h": <page hash>, "c": [<children>]}].
CREATE TABLE revisions (
  id text PRIMARY KEY,
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  change_request_id text,
  parents text[] NOT NULL DEFAULT '{}',
  type text NOT NULL DEFAULT 'edits',
  tree jsonb NOT NULL DEFAULT '[]',
  files jsonb NOT NULL DEFAULT '[]',
  reusable_contents jsonb NOT NULL DEFAULT '[]',
  variables jsonb NOT NULL DEFAULT '{}',
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX revisions_space ON revisions(space_id, created_at);

-- Spaces created before revisions existed get an empty first revision.
INSERT INTO revisions (id, space_id, created_at)
SELECT s.revision, s.id, s.created_at FROM spaces s
WHERE NOT EXISTS (SELECT 1 FROM revisions r WHERE r.id = s.revision);
