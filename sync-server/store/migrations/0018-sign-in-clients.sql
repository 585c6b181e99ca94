-- Which client started each pending sign-in step: a keyed digest (HMAC under an
-- installation secret) of its address as the rate limits count it, never the
-- address itself. One address may hold only so many steps at once
-- (FOLIO_RATE_LIMIT_PENDING_SIGN_INS): a flood of SAML or OpenID Connect starts
-- from one address cannot fill this table. Steps saved outside a request (and
-- rows from before) have none; they expire within minutes.
ALTER TABLE sign_in_requests ADD COLUMN client text;
CREATE INDEX sign_in_requests_client ON sign_in_requests (client, expires_at) WHERE client IS NOT NULL;
