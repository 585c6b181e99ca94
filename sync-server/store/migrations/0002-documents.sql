-- Yjs documents (space/<id>/content, space/<id>/discussion, cr/<id>/content, ...).
-- Each document is an append-only log of updates plus a compacted state; loading
-- reads the state and whatever log rows remain. Document writes only touch these
-- two tables, which are never read through the read cache.

-- seq comes from one identity shared by every document, so several server
-- processes can append to the same document without agreeing on numbers first.
-- Concurrent transactions may commit seqs out of order: readers never assume a
-- gap-free or commit-ordered log (Yjs updates commute), and compaction deletes
-- exactly the rows it merged, never "everything below N".
CREATE TABLE doc_updates (
  doc text NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  data bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (doc, seq)
);

-- state = Y.encodeStateAsUpdate of the previous state merged with log rows;
-- seq = the highest log seq merged so far; generation guards compaction against
-- a concurrent compactor (optimistic: the writer that finds another generation
-- gives up and leaves the log alone).
CREATE TABLE doc_states (
  doc text PRIMARY KEY,
  state bytea NOT NULL,
  seq bigint NOT NULL,
  generation integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
