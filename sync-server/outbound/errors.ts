/** Why an outbound fetch failed; callers map these to their own errors (a refused address is the caller's fault). */
export type OutboundErrorCode =
  | 'invalid-url'
  | 'refused-address'
  | 'dns-failed'
  | 'connect-timeout'
  | 'timeout'
  | 'too-large'
  | 'too-many-redirects'
  | 'refused-redirect'
  | 'http-status'
  | 'aborted'
  | 'network';

/** A fetch that failed, with a message safe to show the user who asked for it. */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    /** The HTTP status of an 'http-status' failure (401, 404, 503…). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}
