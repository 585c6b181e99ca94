import type { GitCredentials } from './types';

/**
 * Credentials embedded in a URL (https://user:token@host/…) split off: the URL without them, and
 * them (decoded). Folio stores them apart (sealed) and sends them only as an Authorization header,
 * so they never sit in a URL that could be logged, shown or written into a cache's Git config.
 * A URL that does not parse is returned as given (the transport then refuses it as invalid).
 */
export function splitCredentials(url: string): { url: string; credentials?: GitCredentials } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  if (!parsed.username && !parsed.password) return { url };
  const credentials = {
    username: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
  };
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), credentials };
}

/** The Authorization header of HTTP basic auth. */
export function basicAuthorization(credentials: GitCredentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64')}`;
}

/**
 * Every form the credentials could take in text, for redaction: the password, the pair, the
 * header's base64, and the username too, since hosts take a token as the username
 * (https://<token>@host/…).
 */
export function secretForms(credentials: GitCredentials | undefined): string[] {
  if (!credentials) return [];
  const pair = `${credentials.username}:${credentials.password}`;
  return [credentials.password, pair, Buffer.from(pair, 'utf8').toString('base64'), credentials.username].filter(
    Boolean,
  );
}
