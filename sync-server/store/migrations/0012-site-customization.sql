-- Site customization (GitBook's SiteCustomizationSettings): what the site's
-- owner set, as sent (merged over earlier settings); defaults are applied when
-- it is presented, not stored, so a later default change reaches every site.
CREATE TABLE site_customizations (
  site_id text PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
  settings jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
