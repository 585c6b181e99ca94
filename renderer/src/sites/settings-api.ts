import type { ApiClient } from '../api/client';

/**
 * The calls of a site's customization, audience and settings screens that site-api.ts does not
 * make: the customization (GitBook's SiteCustomizationSettings), the visitor signing key, and a
 * member's visitor claims (to preview a visitor-auth site). Site, publishing and delete calls are
 * site-api.ts's `SiteApi`.
 */

/** A colour per theme, as the API stores it (`#rrggbb` or `#rgb`). */
export interface ThemedColor {
  light: string;
  dark: string;
}

/** An image per theme (absolute http(s) URLs). */
export interface ThemedImage {
  light: string;
  dark: string;
}

/** Where a header link goes: GitBook's content reference (only `url` ones are links on Folio's sites). */
export type LinkTarget = { kind: 'url'; url: string } | { kind: string; [field: string]: unknown } | null;

/** A link of a header menu. */
export interface HeaderSubLink {
  title: string;
  to: LinkTarget;
}

/** A header link: a plain link, a button, or a menu of `links`. */
export interface HeaderLinkItem {
  title: string;
  to: LinkTarget;
  style?: 'link' | 'button-primary' | 'button-secondary';
  links?: HeaderSubLink[];
}

/** The theme readers get first: GitBook's `themes.default` (`system` follows the reader's device). */
export type DefaultTheme = 'light' | 'dark' | 'system';

/**
 * The fields of GitBook's SiteCustomizationSettings these screens change (the API answers all of
 * them, with defaults, and keeps whatever else a GitBook client sends).
 */
export interface SiteCustomization {
  title?: string;
  styling: { primaryColor: ThemedColor; font: string | { fontFamily: string }; [field: string]: unknown };
  favicon: { icon?: ThemedImage; emoji?: string };
  header: { logo?: ThemedImage; links: HeaderLinkItem[]; [field: string]: unknown };
  themes: { default: DefaultTheme; toggeable?: boolean };
  pagination: { enabled: boolean };
  updatedAt?: string;
  [field: string]: unknown;
}

/** A change of the customization: objects merge into the stored one key by key, anything else replaces. */
export type CustomizationChange = Record<string, unknown>;

/** GitBook's `publishing-auth`: the key that signs visitor tokens of a visitor-auth site. */
export interface PublishingAuth {
  object: 'publishing-auth';
  backend: 'custom';
  privateKey: string;
}

const sitePath = (orgId: string, siteId: string) => `/orgs/${orgId}/sites/${siteId}`;

export function getCustomization(api: ApiClient, orgId: string, siteId: string) {
  return api.request<SiteCustomization>(`${sitePath(orgId, siteId)}/customization`);
}

export function updateCustomization(api: ApiClient, orgId: string, siteId: string, change: CustomizationChange) {
  return api.request<SiteCustomization>(`${sitePath(orgId, siteId)}/customization`, { method: 'PUT', body: change });
}

/** Replaces the visitor signing key (tokens signed with the old one stop working) and answers the new one. */
export function regenerateVisitorKey(api: ApiClient, orgId: string, siteId: string) {
  return api.request<PublishingAuth>(`${sitePath(orgId, siteId)}/publishing/auth/regenerate`, { method: 'POST' });
}

/**
 * The caller's visitor token for the organization's visitor-auth sites (a one-hour JWT the server
 * signs for members), so the app can preview such a site as a member sees it.
 */
export async function memberVisitorToken(api: ApiClient, orgId: string): Promise<string | undefined> {
  const answer = await api.request<{ serviceVisitorClaims?: string }>(`/orgs/${orgId}/ping`, { method: 'POST' });
  return answer.serviceVisitorClaims;
}
