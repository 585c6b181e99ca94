-- Translations (GitBook's "Translations" group, issue 31): a translation keeps a result space in
-- another language in step with a source space. Each run is a job (kind `translation-run`, subject
-- `translation:<id>`, jobs/runner.ts); `job_id` is the newest run.
CREATE TABLE translations (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  source_space_id text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  source_language text NOT NULL,
  language text NOT NULL,
  -- GitBook's JSONDocument, as given.
  instructions jsonb NOT NULL,
  -- Created by the first run, in the source's collection; kept when the translation is deleted.
  result_space_id text REFERENCES spaces(id) ON DELETE SET NULL,
  result_revision_id text,
  -- Per source page id: {source, result, proposed?} hashes of what the last run read and wrote
  -- (run-state.ts): a source page whose hash is unchanged is not sent again, and a result page whose
  -- text is neither what was written nor what was proposed for review was edited by hand.
  page_state jsonb NOT NULL DEFAULT '{}',
  runs integer NOT NULL DEFAULT 0,
  total_words bigint NOT NULL DEFAULT 0,
  -- Milliseconds (GitBook reports seconds).
  total_duration_ms bigint NOT NULL DEFAULT 0,
  latest_run_duration_ms bigint NOT NULL DEFAULT 0,
  latest_pages integer NOT NULL DEFAULT 0,
  latest_words integer NOT NULL DEFAULT 0,
  job_id text,
  created_by text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (source_space_id, language)
);
CREATE INDEX translations_of_organization ON translations (organization_id, created_at);

-- What an engine already translated, so a resumed or repeated run never pays twice for one text:
-- key = sha256 of the engine, languages, instructions, glossary terms and the segment.
CREATE TABLE translation_memory (
  translation_id text NOT NULL REFERENCES translations(id) ON DELETE CASCADE,
  key text NOT NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (translation_id, key)
);

-- The organization's glossary: each entry maps language codes to the term in that language.
CREATE TABLE glossary_entries (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  translations jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX glossary_entries_of_organization ON glossary_entries (organization_id, created_at);

-- A result space names the translation that writes it (Space.translatedFrom).
ALTER TABLE spaces
  ADD COLUMN translation_id text,
  ADD COLUMN translation_source_id text;
