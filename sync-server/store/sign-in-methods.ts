import type { Queryable } from './db';

/**
 * Whether any organization has a SAML provider people can sign in with (all
 * three IdP fields set: a 'pending' provider starts no login). The web app's
 * sign-in screen offers "Continue with SSO" only then.
 */
export async function anySamlProviderReady(db: Queryable): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM saml_providers
      WHERE entity_id IS NOT NULL AND sso_url IS NOT NULL AND certificate IS NOT NULL LIMIT 1`,
  );
  return rows.length > 0;
}
