-- Git sync of a space (GitBook's "Git" group): the repository a space imports from and exports to,
-- and what the last sync left. Import and export runs are jobs (kinds `git-import`, `git-export`,
-- subject `git:<spaceId>`, so one runs at a time per space, in order); this row is their shared state.
CREATE TABLE space_git_sync (
  space_id text PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
  -- The repository URL without credentials (they are in `credentials`, sealed by store/secret-box.ts).
  url text NOT NULL,
  credentials text,
  ref text NOT NULL,
  project_directory text NOT NULL DEFAULT '',
  tree_url text,
  commit_url text,
  -- GitBook's gitInfo: the provider and the repository's tree URL, as the caller said.
  provider text,
  provider_url text,
  -- What the layout codec remembers of the last sync (git-sync/layout: paths, texts, bodies), and the
  -- commit it corresponds to: the base of the next import's diff and the parent of the next export.
  baseline jsonb,
  last_commit text,
  -- The newest `timestamp` of an operation applied: an older operation never overwrites a newer one.
  last_timestamp timestamptz,
  -- The newest operation: {state, direction, startedAt, endedAt?, error?, commit?, revision?}.
  operation jsonb,
  updated_at timestamptz NOT NULL
);
