-- The organization an event concerns, kept with the event: an `installation_deleted` event is
-- delivered after its installation's row is gone, and whether it goes to the integration's
-- development tunnel depends on that organization (the owner's events only, unless `dev_all`).
ALTER TABLE integration_events ADD COLUMN organization_id text;
UPDATE integration_events e SET organization_id = i.organization_id
  FROM integration_installations i WHERE i.id = e.installation_id;
