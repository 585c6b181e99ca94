import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';

/**
 * The desktop app's half of signing in through the system browser (RFC 8252
 * §7.3, loopback redirect): a one-shot HTTP listener on 127.0.0.1 at a port
 * the system picks, which takes the server's redirect to `/callback` and hands
 * its query to the renderer. The renderer does the rest (PKCE, state, the code
 * exchange: renderer/src/sign-in/device-flow.ts). No Electron here, so unit
 * tests drive it with plain HTTP.
 */

/** How long a sign-in may take in the browser before the listener gives up. */
export const SIGN_IN_TIMEOUT_MS = 10 * 60_000;

const DONE_PAGE = `<!doctype html><meta charset="utf-8"><title>Folio</title>
<style>body{font:16px system-ui,sans-serif;display:grid;place-items:center;min-height:90vh;margin:0;color:#1b1f24}
@media (prefers-color-scheme:dark){body{background:#15181c;color:#e6e8eb}}</style>
<main><h1>You can close this tab</h1><p>Go back to Folio: it is signing you in.</p></main>`;

interface Pending {
  server: Server;
  callback: Promise<Record<string, string>>;
}

/** Open listeners by id (one per sign-in under way). */
export class BrowserSignIn {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly openExternal: (url: string) => Promise<void>,
    private readonly timeoutMs = SIGN_IN_TIMEOUT_MS,
  ) {}

  /** Starts a listener; the redirect URI names its port. */
  async listen(): Promise<{ id: string; redirectUri: string }> {
    const id = randomUUID();
    let resolve!: (query: Record<string, string>) => void;
    let reject!: (err: Error) => void;
    const callback = new Promise<Record<string, string>>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method !== 'GET' || url.pathname !== '/callback') return void res.writeHead(404).end();
      resolve(Object.fromEntries(url.searchParams));
      res.on('finish', () => this.close(id));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(DONE_PAGE);
    });
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(0, '127.0.0.1', done);
    });
    const timer = setTimeout(() => {
      reject(new Error('The sign-in in the browser took too long; try again'));
      this.close(id);
    }, this.timeoutMs);
    timer.unref();
    callback.catch(() => undefined).finally(() => clearTimeout(timer));
    this.pending.set(id, { server, callback });
    const { port } = server.address() as { port: number };
    return { id, redirectUri: `http://127.0.0.1:${port}/callback` };
  }

  /** Opens `url` (http or https only) in the system browser; resolves with the callback's query. */
  async openAndWait(id: unknown, url: unknown): Promise<Record<string, string>> {
    const pending = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (!pending) throw new Error('No sign-in is waiting with that id');
    if (typeof url !== 'string' || !/^https?:\/\//.test(url) || url.length > 8192) {
      this.close(id as string);
      throw new Error('The sign-in address must be an http(s) URL');
    }
    await this.openExternal(url);
    return pending.callback;
  }

  /** Stops a listener (after its callback, on timeout, or when the app quits). */
  close(id: string): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    pending.server.close();
    pending.server.closeAllConnections();
  }
}
