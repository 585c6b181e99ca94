import type { HttpClient } from 'isomorphic-git';
import { parseOutboundUrl } from '../../outbound';
import { basicAuthorization, secretForms, splitCredentials } from './credentials';
import { GitTransportError, toTransportError, type FailureContext } from './errors';
import { ByteBudget, outboundHttpClient } from './http-client';
import type { RepoAccess } from './types';

/** FOLIO_GIT_MAX_BYTES's default: what one operation may download when the caller sets no limit. */
export const DEFAULT_GIT_MAX_BYTES = 200 * 1024 * 1024;

/** Everything one operation on one repository uses. */
export interface Connection {
  /** The repository URL, without credentials. */
  url: string;
  gitdir: string;
  http: HttpClient;
  /** isomorphic-git's object cache for this operation (pack indexes read once). */
  cache: object;
  maxBytes: number;
  /** Headers for one isomorphic-git call (it adds to the object it is given, so each call gets its own). */
  headers(): Record<string, string>;
  /** Throws 'aborted' once the caller's signal has aborted: called between steps. */
  checkpoint(): void;
  failure: FailureContext;
}

/**
 * Opens an operation: credentials embedded in the URL are split off (explicit `credentials`
 * win), the URL is checked, and the HTTP client is bound to the policy, budget and signal.
 */
export function connect(access: RepoAccess): Connection {
  const split = splitCredentials(access.url);
  const credentials = access.credentials ?? split.credentials;
  const url = split.url.replace(/\/+$/, '');
  const maxBytes = access.outbound.maxBytes ?? DEFAULT_GIT_MAX_BYTES;
  const failure: FailureContext = {
    url,
    hadCredentials: credentials !== undefined,
    maxBytes,
    secrets: secretForms(credentials),
  };
  try {
    new URL(url);
  } catch {
    // Not quoted: a URL that does not parse may still hold credentials splitCredentials could not find.
    throw new GitTransportError('invalid-url', 'the repository URL is not a valid http(s) URL');
  }
  try {
    parseOutboundUrl(url);
  } catch (err) {
    throw toTransportError(err, failure);
  }
  const authorization = credentials ? basicAuthorization(credentials) : undefined;
  return {
    url,
    gitdir: access.cacheDir,
    http: outboundHttpClient({ outbound: access.outbound, budget: new ByteBudget(maxBytes), signal: access.signal }),
    cache: {},
    maxBytes,
    headers: () => ({
      // Some hosts serve Git only to agents that say they are Git.
      'user-agent': 'git/isomorphic-git (Folio)',
      // Sent up front: isomorphic-git would otherwise first ask without, and only retry on a 401.
      ...(authorization ? { authorization } : {}),
    }),
    checkpoint() {
      if (access.signal?.aborted) throw new GitTransportError('aborted', 'the Git operation was cancelled');
    },
    failure,
  };
}

/** Runs an operation, turning whatever it throws into a GitTransportError safe to show and log. */
export async function guarded<T>(conn: Connection, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (err) {
    throw toTransportError(err, conn.failure);
  }
}
