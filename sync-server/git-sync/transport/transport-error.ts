/**
 * The transport's error, apart from the code that maps isomorphic-git's errors to it (errors.ts),
 * so that callers can tell it by class without loading isomorphic-git.
 */

/** Why a Git operation failed; what a caller (and the user) can do differs for each. */
export type GitTransportErrorCode =
  /** 401/403: wrong or missing credentials, or no access. */
  | 'auth'
  /** No repository at that URL (or no access, for hosts that hide private repositories). */
  | 'not-found'
  /** The host could not be reached, or answered an error (5xx…). */
  | 'network'
  /** The URL's address is not one the server may connect to (FOLIO_OUTBOUND_ALLOW). */
  | 'refused-address'
  | 'timeout'
  /** The answer is not Git's, or Git refused something the transport cannot explain. */
  | 'protocol'
  /** More to download (or to hold) than FOLIO_GIT_MAX_BYTES. */
  | 'too-large'
  /** The caller's signal aborted the operation. */
  | 'aborted'
  /** The repository URL is not an http(s) URL. */
  | 'invalid-url'
  /** A path of the change set is not one a repository may hold (`..`, `.git`, a file under a file…). */
  | 'invalid-path';

/**
 * A Git operation that failed. Its message is safe to show users: it names the host and the
 * repository, never the credentials (they are redacted from anything quoted), and it carries no
 * `cause`, so a logger serializing it cannot reach the original error's request headers.
 */
export class GitTransportError extends Error {
  constructor(
    readonly code: GitTransportErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'GitTransportError';
  }
}
