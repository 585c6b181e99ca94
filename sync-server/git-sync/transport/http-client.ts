import { STATUS_CODES } from 'node:http';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { fetchOutbound, OutboundError, type OutboundOptions } from '../../outbound';

/**
 * isomorphic-git's `http` plugin on the outbound fetcher: every request Git makes (info/refs,
 * upload-pack, receive-pack) goes through the server's address policy (checked and pinned
 * addresses, re-checked redirects, FOLIO_OUTBOUND_ALLOW), and all of an operation's downloads
 * share one byte budget, so a repository cannot exhaust memory or disk however it answers.
 */

/** Each Git request's own time limit, unless the caller sets one: a large pack takes a while. */
export const GIT_REQUEST_TIMEOUT_MS = 5 * 60_000;

/** Bytes an operation may still download. */
export class ByteBudget {
  private used = 0;
  constructor(readonly limit: number) {}
  get remaining(): number {
    return this.limit - this.used;
  }
  spend(bytes: number): void {
    this.used += bytes;
  }
}

async function collect(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function* once(bytes: Uint8Array): AsyncIterableIterator<Uint8Array> {
  yield bytes;
}

export function outboundHttpClient(options: {
  outbound: OutboundOptions;
  budget: ByteBudget;
  signal?: AbortSignal | undefined;
}): HttpClient {
  const { outbound, budget, signal } = options;
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      // Git's request bodies are the small want/have list or the pack isomorphic-git already built
      // in memory: sent as bytes they get a Content-Length (some hosts need one) and survive a 307.
      const body = req.body ? await collect(req.body as AsyncIterable<Uint8Array>) : undefined;
      if (budget.remaining <= 0) throw new OutboundError('too-large', 'the download budget is spent');
      const res = await fetchOutbound(req.url, {
        totalTimeoutMs: GIT_REQUEST_TIMEOUT_MS,
        ...outbound,
        method: req.method ?? 'GET',
        headers: req.headers ?? {},
        ...(body ? { body } : {}),
        ...(signal ? { signal } : {}),
        maxBytes: budget.remaining,
      });
      budget.spend(res.body.length);
      return {
        url: res.url,
        method: req.method ?? 'GET',
        statusCode: res.status,
        statusMessage: STATUS_CODES[res.status] ?? '',
        headers: res.headers,
        body: once(res.body),
      };
    },
  };
}
