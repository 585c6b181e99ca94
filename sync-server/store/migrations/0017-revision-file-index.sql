-- The collector of unused blobs asks, for each old blob, whether any revision
-- lists it among its files (`files @> '[{"sha256": ...}]'`): an index instead
-- of reading every revision's file list once an hour.
CREATE INDEX revisions_files ON revisions USING gin (files jsonb_path_ops);
