-- API tokens are stored as HMAC-SHA256 digests keyed with a per-installation
-- secret (server_secrets 'token-digest'), no longer as plain SHA-256. Rows
-- written before hold a plain SHA-256 digest: they are marked legacy, still
-- accepted, and rewritten with the keyed digest the first time they are used.
ALTER TABLE api_tokens ADD COLUMN legacy_sha256 boolean NOT NULL DEFAULT true;
ALTER TABLE api_tokens ALTER COLUMN legacy_sha256 SET DEFAULT false;
