/**
 * This server's side of one SAML provider (the service provider, SP): the
 * addresses an IdP administrator pastes into their IdP. They derive from the
 * public URL and the provider id, so they are never stored and follow a
 * change of FOLIO_PUBLIC_URL.
 */
export interface ServiceProviderUrls {
  /** The SP entity ID (the Audience the IdP must address): the metadata URL, as is usual. */
  entityID: string;
  /** Where the IdP posts its response (HTTP-POST binding). */
  acsURL: string;
  /** Where a sign-in starts (redirects to the IdP with an AuthnRequest). */
  startURL: string;
  /** The SP metadata XML. */
  metadataURL: string;
}

export function serviceProviderUrls(root: string, providerId: string): ServiceProviderUrls {
  const base = `${root}/auth/saml/${encodeURIComponent(providerId)}`;
  return {
    entityID: `${base}/metadata`,
    acsURL: `${base}/acs`,
    startURL: `${base}/start`,
    metadataURL: `${base}/metadata`,
  };
}
