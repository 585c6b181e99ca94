-- Proof behind an organization's claims (issue 26). An organization's
-- emailDomains and a site's custom hostname are claims about domains that
-- somebody else may own; nothing that signs people in, routes them or serves
-- a hostname may act on a claim until it is proved:
--   by DNS    a TXT record `folio-verification=<token>` at `_folio-verification.<domain>`,
--             read through the configured resolver (FOLIO_DNS_SERVERS);
--   by admin  the instance admin approved it (API or CLI).
-- A domain is verified for at most one organization on the instance (the
-- partial unique index), so the second organization's claim stays pending.
CREATE TABLE domain_claims (
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  domain text NOT NULL,
  token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  verified_at timestamptz,
  verified_by text CHECK (verified_by IN ('dns', 'admin')),
  PRIMARY KEY (organization_id, domain)
);
CREATE UNIQUE INDEX domain_claims_verified ON domain_claims (domain) WHERE verified_at IS NOT NULL;

-- The declared email domains of existing organizations become pending claims:
-- what was trusted without proof before this migration must now be proved.
INSERT INTO domain_claims (organization_id, domain, token)
SELECT o.id, d.domain, replace(gen_random_uuid()::text, '-', '')
  FROM organizations o CROSS JOIN LATERAL unnest(o.email_domains) AS d(domain)
ON CONFLICT DO NOTHING;

-- Removals are remembered: a person an admin removed does not rejoin through
-- the domain auto-join at their next sign-in; an invite they accept (an admin
-- asked them back) clears the row.
CREATE TABLE member_removals (
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  removed_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
