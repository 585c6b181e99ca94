-- GitBook's current SiteSection fields: a draft section is kept off the
-- published site; localized title and description are per-language overrides
-- ({"fr": "Guide"}), stored as sent (null = none).
ALTER TABLE site_sections ADD COLUMN draft boolean NOT NULL DEFAULT false;
ALTER TABLE site_sections ADD COLUMN localized_title jsonb;
ALTER TABLE site_sections ADD COLUMN localized_description jsonb;
