/**
 * The HTTP server's limits, in one place so that app.ts applies them and the
 * docs/configuration.md's "Limits" section can be checked against them. Each one bounds what
 * a single client can make the server hold or wait for.
 */

/** Largest JSON request body: this API's bodies are small documents (uploads have their own limit). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Deepest nesting of arrays and objects in a JSON body. Generous for every
 * real body (a GitBook document with lists nested 20 deep stays under 100),
 * and small enough that no recursive walk of a body (Ajv, jsonb, our own
 * schema checks) can run out of stack: 15,000 levels used to answer 500.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * Longest path parameter the router matches. Above every parameter a route
 * declares (ids are 64, an email domain 253), so an over-long id reaches the
 * route's schema and is a 400 naming the parameter; past it, 414.
 */
export const MAX_PARAM_LENGTH = 256;

/** Largest request head (request line and headers); Node's parser answers 431 past it. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Time to receive a request's head (slow-loris clients are cut after it). */
export const HEADERS_TIMEOUT_MS = 30_000;

/** Time to receive a whole request, body included: a 100 MB upload at ~3 Mbit/s. */
export const REQUEST_TIMEOUT_MS = 300_000;

/** A connection with no traffic in either direction for this long is closed. */
export const CONNECTION_IDLE_TIMEOUT_MS = 120_000;

/**
 * How long an idle keep-alive connection stays open between requests: longer
 * than the 60 s idle timeout of common load balancers, so they close first.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * Shutdown must not wait out KEEP_ALIVE_TIMEOUT_MS. On close, Node cuts the connections idle at
 * that moment; one with a request in flight stays open once its response is sent, until its
 * keep-alive timer ends (72 s plus Node's 1 s margin), and the close waits for it. Set when the
 * close starts, this timeout applies to those responses: their connections close right after.
 */
export const CLOSING_KEEP_ALIVE_TIMEOUT_MS = 1;

/** The Fastify server options that apply these limits (app.ts spreads them into its options). */
export const SERVER_LIMIT_OPTIONS = {
  bodyLimit: JSON_BODY_LIMIT_BYTES,
  routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
  http: { maxHeaderSize: MAX_HEADER_BYTES, headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS },
  requestTimeout: REQUEST_TIMEOUT_MS,
  connectionTimeout: CONNECTION_IDLE_TIMEOUT_MS,
  keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
} as const;
