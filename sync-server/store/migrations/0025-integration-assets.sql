-- The images an integration is published with (its icon and up to three preview images), served
-- without a token at the integration's `urls.icon` and `previewImages` URLs. Kept here rather than
-- in the blob store: they are small (256 KiB and 1 MiB at most), go with the integration when it is
-- unpublished (ON DELETE CASCADE), and the collector of unused blobs knows nothing of integrations.
-- Named by their sha256, so a URL handed out always serves the same bytes.
CREATE TABLE integration_assets (
  integration_name text NOT NULL REFERENCES integrations(name) ON DELETE CASCADE,
  sha256 text NOT NULL,
  content_type text NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (integration_name, sha256)
);
