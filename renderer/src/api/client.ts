import { readApiError } from '../../../shared/api-error';
import { SYNC_BASE_PATH } from '../../../shared/sync-contract';

/**
 * The REST client of the app: every call to the server's /v1 API goes
 * through `ApiClient.request`, which adds the bearer token (or, for the web
 * app's own server signed in through the browser, lets the HttpOnly session
 * cookie go along) and turns the
 * API's error shape into an ApiError (status + the server's message) and a
 * failed connection into an OfflineError, so callers can tell "the server
 * said no" (never retry) from "the server is unreachable" (retry later).
 */

/** The server answered with an error status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Whether retrying the same request later may succeed (server trouble or rate limiting). */
  get retryable(): boolean {
    return this.status >= 500 || this.status === 408 || this.status === 429;
  }
}

/** The server could not be reached at all. */
export class OfflineError extends Error {
  constructor(cause: unknown) {
    super('The server is unreachable', { cause });
    this.name = 'OfflineError';
  }
}

/** Options of one request. */
export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
}

/** The server URL without trailing slashes, e.g. `http://127.0.0.1:8080`. */
export function normalizeServerUrl(raw: string): string {
  const url = new URL(raw.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('The server URL must start with http:// or https://');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A client of one server, authenticated with one API token, or with the browser's session cookie when `token` is undefined. */
export class ApiClient {
  constructor(
    readonly serverUrl: string,
    private readonly token: string | undefined,
  ) {}

  /** Whether the browser's session cookie authenticates this client (no token of its own). */
  get usesCookie(): boolean {
    return this.token === undefined;
  }

  /** The WebSocket URL the sync provider connects to (it appends `/<room>`, see syncRoom). */
  get syncUrl(): string {
    return `${this.serverUrl.replace(/^http/, 'ws')}${SYNC_BASE_PATH}`;
  }

  /**
   * The token, for the sync socket's `?token=` (browsers cannot set headers on WebSockets);
   * nothing for a cookie session, whose cookie the browser sends with the upgrade itself.
   */
  get syncParams(): Record<string, string> {
    return this.token === undefined ? {} : { token: this.token };
  }

  /** Sends a request to `/v1<path>` and returns the parsed JSON body (undefined for 204). */
  async request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(`${this.serverUrl}/v1${path}`);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = this.token === undefined ? {} : { authorization: `Bearer ${this.token}` };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(url, {
        method: options.method ?? 'GET',
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
        // A token client never sends the cookie (another server's page must not ride on it).
        credentials: this.token === undefined ? 'same-origin' : 'omit',
      });
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new OfflineError(err);
    }
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    const body = text ? safeJson(text) : undefined;
    if (!res.ok)
      throw new ApiError(res.status, readApiError(body)?.message ?? `The server answered HTTP ${res.status}`);
    return body as T;
  }

  /** PUTs raw bytes to a signed URL the API handed out (no token: the URL is the capability). */
  async putBytes<T>(url: string, bytes: Blob, contentType: string): Promise<T> {
    let res: Response;
    try {
      res = await fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes });
    } catch (err) {
      throw new OfflineError(err);
    }
    const body = safeJson(await res.text());
    if (!res.ok) throw new ApiError(res.status, readApiError(body)?.message ?? `Upload failed: HTTP ${res.status}`);
    return body as T;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A message for the user from any error a call may throw. */
export function describeError(err: unknown): string {
  if (err instanceof OfflineError) return 'The server is unreachable. Check the URL and your connection.';
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** Every item of a paged list answer (`/orgs/…/spaces`, …), following `next.page` to the end. */
export async function listAll<T>(
  api: ApiClient,
  path: string,
  query: Record<string, string | number | boolean | undefined> = {},
): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  do {
    const list = await api.request<{ items: T[]; next?: { page: string } }>(path, {
      query: { ...query, limit: 1000, page },
    });
    items.push(...list.items);
    page = list.next?.page;
  } while (page);
  return items;
}
