-- Secrets generated once per installation and shared by every server process
-- (URL signing). Never returned by the API.
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Upload slots handed out by generateStorageUploadURL. The bytes land in the
-- content-addressed blob store; the row records what was declared and what
-- arrived.
CREATE TABLE storage_uploads (
  key text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind text NOT NULL,
  name text NOT NULL,
  content_type text NOT NULL,
  declared_size bigint NOT NULL,
  created_by text REFERENCES users(id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  sha256 text,
  size bigint,
  uploaded_at timestamptz
);
CREATE INDEX storage_uploads_sha ON storage_uploads(sha256);
