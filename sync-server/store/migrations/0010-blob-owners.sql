-- Which organizations may serve which stored bytes. Blobs are content-addressed
-- and stored once, so a digest alone must not be a key to them: a download link
-- only serves a blob the space's organization owns, because it was uploaded
-- into that organization (or came with a space transferred to it).
CREATE TABLE blob_owners (
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  sha256 text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, sha256)
);

-- Uploads finished before this table existed belong to the organization they were made in.
INSERT INTO blob_owners (organization_id, sha256)
SELECT DISTINCT organization_id, sha256 FROM storage_uploads WHERE sha256 IS NOT NULL
ON CONFLICT DO NOTHING;
