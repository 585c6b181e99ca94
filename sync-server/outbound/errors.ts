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

/** What an 'http-status' failure's server answered besides its status. */
export interface OutboundErrorResponse {
  /** Response headers, names lower-case, repeated headers joined with ", " (Retry-After, WWW-Authenticate…). */
  headers: Record<string, string>;
  /** The first bytes of the answer's body (at most ERROR_BODY_BYTES): an API's own error text. */
  body: Buffer;
}

/** How much of a non-2xx answer's body is kept: enough for an API's JSON error, never a whole page. */
export const ERROR_BODY_BYTES = 4 * 1024;

/**
 * A fetch that failed, with a message safe to show the user who asked for it. The message never
 * holds the answer's body: the remote server wrote that, and it may echo what the request carried
 * (a key, a token). An 'http-status' failure carries the answer's `headers` and the first bytes of
 * its `body` for the caller to read deliberately; both are non-enumerable, so a logger that
 * serializes the error (pino's `err`), JSON.stringify or util.inspect leaves them out.
 */
export class OutboundError extends Error {
  /** The answer's headers, on an 'http-status' failure. */
  declare readonly headers?: Record<string, string>;
  /** The first ERROR_BODY_BYTES of the answer's body, on an 'http-status' failure. */
  declare readonly body?: Buffer;

  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    /** The HTTP status of an 'http-status' failure (401, 404, 503…). */
    readonly status?: number,
    response?: OutboundErrorResponse,
  ) {
    super(message);
    this.name = 'OutboundError';
    if (response)
      Object.defineProperties(this, {
        headers: { value: response.headers, enumerable: false },
        body: { value: response.body.subarray(0, ERROR_BODY_BYTES), enumerable: false },
      });
  }
}
