-- An integration's manifest keeps the order its publisher wrote: `json` stores the text as given,
-- where `jsonb` reorders object keys (shortest first). The app draws a configuration form's fields in
-- the order of the schema's `properties`, so that order is the publisher's to choose. Queries that
-- need jsonb's operators cast (the table holds one row per integration).
ALTER TABLE integrations ALTER COLUMN manifest TYPE json USING manifest::json;
