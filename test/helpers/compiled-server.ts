import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { ensureServerBuilt } from '../../scripts/build-server.mjs';
import type { TestOidcProvider } from './oidc-provider';
import { freshPostgresDatabase } from './postgres';
import { freePort, startServerProcess, type ServerProcess } from './server-process';

/**
 * The sync server as users meet it: `out/server/main.js` started the way `npm start` starts it
 * (its Node flags and environment, server-process.ts), in a child process on a temp data folder.
 * The end-to-end suites run against it, so a defect of the bundle (a worker that does not load, an
 * asset left behind, a path that differs from the sources) fails a test instead of only `npm start`.
 *
 * Such a server is reached the way a user or a script reaches it: over HTTP and the sync socket.
 * There is no `server.ctx` here on purpose — content goes in through REST (seed.ts), people
 * through the sign-in routes (people.ts).
 */

/** The instance admin's token on every compiled test server (FOLIO_ADMIN_TOKEN; the same value as test/helpers/server.ts's). */
export const ADMIN_TOKEN = 'folio-test-admin-token-0123456789';

/**
 * What a test server offers whichever way it was started (in-process from the sources, or the
 * compiled server in a process of its own): an address, the admin's token, the official client.
 * Code that needs the in-process server's internals (`server.ctx`) takes `TestServer` instead and
 * so cannot be handed a compiled server.
 */
export interface RunningServer {
  url: string;
  adminToken: string;
  /** The official GitBook client, authenticated as the instance admin. */
  client: GitBookAPI;
  /** A GitBook client for another token. */
  clientFor(token: string): GitBookAPI;
  close(): Promise<void>;
}

/** A compiled server process (see the file comment). */
export interface CompiledServer extends RunningServer {
  /** Its PGlite data folder (blobs and `admin-token` live there on PostgreSQL too). */
  readonly dataDir: string;
  /** Everything the process printed since the first start (it logs at `warn`): for diagnostics. */
  output(): string;
  /** Stops the process (SIGTERM, graceful) and keeps its data. */
  stop(): Promise<void>;
  /** Starts it again on the same address and data (after `stop`). */
  start(): Promise<void>;
  /** The OpenID provider people sign up through (with `people: true`; people.ts's newPerson). */
  readonly people?: TestOidcProvider;
}

/** How to start one. */
export interface CompiledServerOptions {
  /** FOLIO_* settings for this server (over the defaults: FOLIO_ADMIN_TOKEN, FOLIO_LOG_LEVEL=warn). */
  env?: Record<string, string>;
  /**
   * The database: PGlite in the data folder (default, as `npm start`), or a fresh PostgreSQL
   * database at test/helpers/postgres.ts's server, dropped by `close`.
   */
  backend?: 'pglite' | 'postgres';
  /**
   * Also start a real OpenID provider (test/helpers/oidc-provider.ts) and set the server up to sign
   * people in through it: how people.ts makes named people with tokens. The sign-in screen then
   * offers "Continue with Test IdP" besides the token form.
   */
  people?: boolean;
}

let built: Promise<unknown> | undefined;

/** Server processes running now: killed if the test process exits without closing them (a crashed worker). */
const running = new Set<ServerProcess>();
process.once('exit', () => {
  for (const server of running) server.child.kill('SIGKILL');
});

/**
 * Compiles the server once per test process when a source is newer than the build (what
 * `npm start` does before it runs it).
 */
export function ensureCompiled(): Promise<unknown> {
  built ??= ensureServerBuilt();
  return built;
}

/** Starts a compiled server (see CompiledServer); resolves once it answers GET /healthz. */
export async function startCompiledServer(options: CompiledServerOptions = {}): Promise<CompiledServer> {
  await ensureCompiled();
  const dataDir = await mkdtemp(join(tmpdir(), 'folio-e2e-'));
  const pgDb = options.backend === 'postgres' ? await freshPostgresDatabase('folio_e2e') : undefined;
  const port = Number(options.env?.FOLIO_PORT) || (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let people: TestOidcProvider | undefined;
  if (options.people) {
    // Loaded only here: oidc-provider prints a runtime notice when it loads.
    const { startOidcProvider } = await import('./oidc-provider');
    people = await startOidcProvider();
    people.register(`${url}/auth/oidc/callback`);
  }
  const env: Record<string, string> = {
    FOLIO_ADMIN_TOKEN: ADMIN_TOKEN,
    // Warnings and errors only: what a failing test prints to say what the server saw.
    FOLIO_LOG_LEVEL: 'warn',
    ...(pgDb ? { FOLIO_DATABASE_URL: pgDb.url } : {}),
    ...(people
      ? {
          FOLIO_OIDC_ISSUER: people.issuer,
          FOLIO_OIDC_CLIENT_ID: people.clientId,
          FOLIO_OIDC_CLIENT_SECRET: people.clientSecret,
          FOLIO_OIDC_LABEL: 'Test IdP',
        }
      : {}),
    ...options.env,
  };
  let earlier = '';
  let current: ServerProcess | undefined;
  const start = async () => {
    if (current) throw new Error(`the compiled server at ${url} is already running`);
    current = await startServerProcess('compiled', dataDir, 60_000, undefined, { env, port });
    running.add(current);
  };
  const stop = async () => {
    const stopping = current;
    if (!stopping) return;
    await stopping.stop();
    running.delete(stopping);
    earlier += stopping.output();
    current = undefined;
  };
  try {
    await start();
  } catch (err) {
    await people?.close();
    await pgDb?.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const clientFor = (token: string) => new GitBookAPI({ endpoint: url, authToken: token });
  return {
    url,
    adminToken: ADMIN_TOKEN,
    dataDir,
    client: clientFor(ADMIN_TOKEN),
    clientFor,
    ...(people ? { people } : {}),
    output: () => earlier + (current?.output() ?? ''),
    start,
    stop,
    async close() {
      await stop();
      await people?.close();
      await pgDb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON call to a server's /v1 API as its admin: the status and the parsed body (undefined when empty), never a throw. */
export async function adminCall(
  server: Pick<RunningServer, 'url' | 'adminToken'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> | undefined }> {
  const res = await fetch(`${server.url}/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${server.adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}
