import type { AllowList } from './address-policy';

/** How a host name becomes addresses (tests inject one to simulate DNS). */
export type Resolver = (host: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** The policy and limits of a fetch: usually from the server's configuration. */
export interface OutboundOptions {
  allow?: AllowList;
  resolver?: Resolver;
  maxRedirects?: number;
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxBytes?: number;
  /** CA certificates to trust besides the system's (tests with a local https server). */
  ca?: string | Buffer;
}

/**
 * A request body: bytes (sent with a Content-Length, and sent again on a 307/308 redirect) or a
 * stream of chunks (sent chunked, once: a redirect of a streamed body is refused).
 */
export type OutboundBody = Uint8Array | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** What to send; the default is a plain GET. */
export interface OutboundRequest {
  /** GET (default), HEAD, POST, PUT, PATCH or DELETE. */
  method?: string;
  /**
   * Request headers (names case-insensitive). Host, Content-Length, Transfer-Encoding, Connection
   * and Accept-Encoding are the fetcher's own and ignored here.
   */
  headers?: Record<string, string>;
  body?: OutboundBody;
  /** Aborting it ends the fetch with the code 'aborted'. */
  signal?: AbortSignal;
}

export interface OutboundResponse {
  /** The URL the body came from (after redirects). */
  url: string;
  status: number;
  contentType: string | undefined;
  /** Response headers, names lower-case, repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export const DEFAULTS = {
  maxRedirects: 5,
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 20_000,
  maxBytes: 10 * 1024 * 1024,
} as const;
