-- Git sync that keeps itself up to date (issue 30, point 6): per space, export after every merge,
-- import when a push is announced on the space's secret webhook URL, or import every few minutes.
ALTER TABLE space_git_sync
  ADD COLUMN export_on_merge boolean NOT NULL DEFAULT false,
  ADD COLUMN import_on_push boolean NOT NULL DEFAULT false,
  -- Minutes between two polls of the repository; null: no polling.
  ADD COLUMN poll_minutes integer CHECK (poll_minutes BETWEEN 5 AND 1440),
  -- The secret of the webhook URL, sealed by store/secret-box.ts (admins can read the URL again).
  ADD COLUMN webhook_secret text,
  -- When the poller last queued an import of this space.
  ADD COLUMN last_polled_at timestamptz,
  -- Who automatic imports run as: the person who last saved these settings.
  ADD COLUMN auto_user_id text REFERENCES users(id) ON DELETE SET NULL;

-- The poller looks only at the spaces that poll.
CREATE INDEX space_git_sync_polling ON space_git_sync (last_polled_at) WHERE poll_minutes IS NOT NULL;
