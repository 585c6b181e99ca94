-- Open (unresolved top-level) comments of a space, kept by the comments module
-- after every discussion change, so Space objects need no document load.
ALTER TABLE spaces ADD COLUMN open_comments int NOT NULL DEFAULT 0;
