-- Full-text index of the current content of each space, one row per page
-- section. Rows are replaced per page only when that page changed (its
-- content hash differs), so indexing follows edits incrementally.
CREATE TABLE search_sections (
  space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  page_id text NOT NULL,
  page_hash text NOT NULL,
  section_id text NOT NULL,
  ord int NOT NULL,
  page_title text NOT NULL,
  page_description text NOT NULL DEFAULT '',
  page_path text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  tsv tsvector NOT NULL,
  PRIMARY KEY (space_id, page_id, section_id)
);
CREATE INDEX search_sections_tsv ON search_sections USING GIN (tsv);
