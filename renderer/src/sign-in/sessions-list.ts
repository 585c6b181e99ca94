import type { Credential } from '../org/org-api';
import type { IconName } from '../ui/icons';

/**
 * How the account screen's one list of sessions, devices and tokens (org/components/
 * credential-list.tsx) names what signed in: its kind, the way it signed in, its browser or app.
 */

/** One credential of the signed-in person (`GET /v1/user/tokens`; never the secret). */
export type { Credential };

export const KIND_LABELS: Record<string, string> = {
  session: 'Browser session',
  device: 'Desktop app',
  api: 'API token',
};
export const KIND_ICONS: Record<string, IconName> = { session: 'globe', device: 'monitor', api: 'key' };
export const METHOD_LABELS: Record<string, string> = {
  saml: 'SSO (SAML)',
  oidc: 'OpenID Connect',
  email: 'email link',
  token: 'API token',
};

/**
 * A readable name for a browser or app from its User-Agent ("Chrome on Linux"); the raw
 * string is kept in the row's title for the curious.
 */
export function describeUserAgent(ua: string | null | undefined): string | undefined {
  if (!ua) return undefined;
  const browser =
    /Electron\//.test(ua) || /Folio/.test(ua)
      ? 'Folio desktop'
      : /Edg\//.test(ua)
        ? 'Edge'
        : /Firefox\//.test(ua)
          ? 'Firefox'
          : /Chrom(e|ium)\//.test(ua)
            ? 'Chrome'
            : /Safari\//.test(ua)
              ? 'Safari'
              : /curl\//.test(ua)
                ? 'curl'
                : undefined;
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Mac OS X|Macintosh/.test(ua)
        ? 'macOS'
        : /Android/.test(ua)
          ? 'Android'
          : /Linux/.test(ua)
            ? 'Linux'
            : undefined;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? ua.slice(0, 60);
}
