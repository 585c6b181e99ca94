-- Which pages each revision uses, as a flat indexed array: pages are shared between
-- revisions (and spaces, after a duplicate), so a page may only be deleted once no
-- revision lists it. The purge of deleted spaces uses this to remove pages nobody uses.
ALTER TABLE revisions ADD COLUMN page_hashes text[] NOT NULL DEFAULT '{}';
UPDATE revisions SET page_hashes = ARRAY(SELECT DISTINCT h #>> '{}' FROM jsonb_path_query(tree, 'lax $.**.h') AS h);
CREATE INDEX revisions_page_hashes ON revisions USING gin (page_hashes);
