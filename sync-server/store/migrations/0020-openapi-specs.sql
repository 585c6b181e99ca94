-- OpenAPI specifications of an organization (GitBook's "OpenAPI specs" group) and their versions.
-- A spec is created or updated from a URL or a text; each of those queues a job (kind
-- `openapi-spec-process`, subject `openapi:<specId>`, jobs/runner.ts) that fetches the document
-- and its external $refs through the outbound fetcher, parses and validates it, and adds a
-- version when the content changed. `job_id` is the spec's newest processing job: an older job
-- still adds its version but never overwrites the state the newer one reports.
CREATE TABLE openapi_specs (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  slug text NOT NULL,
  -- The URL the newest source came from; null when it was a text.
  source_url text,
  visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'public')),
  processing_state text NOT NULL CHECK (processing_state IN ('pending', 'progress', 'complete')),
  last_version_id text,
  last_processed_at timestamptz,
  -- FETCH_TIMEOUT, FETCH_ERROR or PARSE_ERROR when the newest processing failed (null when it succeeded).
  last_error_code text,
  -- [{message, code?}], at most 20 of them (last_error_count counts them all).
  last_errors jsonb,
  last_error_count integer NOT NULL DEFAULT 0,
  job_id text,
  created_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (organization_id, slug)
);

-- Versions are immutable: written once by a processing job, never updated. The JSON of the
-- filesystem and the bundle is kept as text, byte for byte as produced (jsonb would reorder keys,
-- and the order of paths and properties is what a reader of the reference sees).
CREATE TABLE openapi_spec_versions (
  id text PRIMARY KEY,
  spec_id text NOT NULL REFERENCES openapi_specs(id) ON DELETE CASCADE,
  -- 1, 2, 3… per spec: the newest version has the highest.
  seq integer NOT NULL,
  source_url text,
  -- The entry document exactly as fetched or given, and whether it is JSON or YAML.
  raw_text text NOT NULL,
  raw_format text NOT NULL CHECK (raw_format IN ('json', 'yaml')),
  -- The `filesystem` of the version's content: {filename: {dir, isEntrypoint, references, filename, specification}}.
  filesystem text NOT NULL,
  -- The whole specification in one JSON document (external $refs inlined): what the public URL serves.
  bundle text NOT NULL,
  -- SHA-256 of the filesystem's JSON: an update whose content hashes the same makes no new version.
  content_hash text NOT NULL,
  -- `openapi` (3.0.x, 3.1.x) or `swagger` (2.0) of the entry document.
  spec_version text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (spec_id, seq)
);
