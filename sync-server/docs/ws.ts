import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Server } from 'node:http';
import { WebSocketServer } from 'ws';
import { bearerToken } from '../identity/principal';
import { isSameOrigin, sessionTokenFromCookies } from '../identity/sessions';
import { errorBody } from '../http/errors';
import { matchSyncPath, type SyncAccess, type SyncTarget } from './access';
import type { DocHub, HubLogger } from './hub';
import { CloseCode } from '../../shared/sync-contract';
import { SyncConnection } from './connection';
import { AccessSweep } from './access-sweep';

/** Settings of the WebSocket endpoint. */
export interface SyncOptions {
  /** Largest accepted frame (a first SyncStep2 carries a whole offline session). */
  maxPayloadBytes: number;
  /** Ping interval; a connection that misses one pong is dropped. Every connection's access is re-checked as often too. */
  heartbeatMs: number;
  /** Delay from an access change (any write) to re-checking the open connections, and least pause between two such sweeps. */
  accessSweepMs: number;
}

export const DEFAULT_SYNC_OPTIONS: SyncOptions = {
  maxPayloadBytes: 32 * 1024 * 1024,
  heartbeatMs: 30_000,
  accessSweepMs: 200,
};

/** Decides an upgrade: the connection's access, or the HTTP status refusing it. */
export type UpgradeAuthorizer = (token: string | undefined, target: SyncTarget) => Promise<SyncAccess | 401 | 404>;

/** What the sync endpoint needs from the server. */
export interface SyncDeps {
  hub: DocHub;
  log: HubLogger;
  authorize: UpgradeAuthorizer;
  /** Throttles token guessing (http/rate-limiter.ts); none: unlimited. */
  guard?: UpgradeGuard;
  /** The server's public URL: with it, a browser on this server's own pages may sign in with its session cookie. */
  publicUrl?: () => string;
}

/**
 * Failed-authentication limit per client address: `admit` claims a credit
 * before the token is checked (`wait` > 0: refuse with 429), `settle` keeps
 * it for a refused token and gives it back otherwise.
 */
export interface UpgradeGuard {
  admit(req: IncomingMessage, token: string | undefined): PromiseLike<UpgradeClaim> | UpgradeClaim;
}
/** What `UpgradeGuard.admit` answers: seconds to wait (0: go on), and how to settle the credit. */
export interface UpgradeClaim {
  wait: number;
  settle(outcome: 'failed' | 'accepted' | 'other'): void;
}

/** The sync endpoint: built before the HTTP app, attached to its server once that exists. */
export interface SyncEndpoint {
  /** Open connections (diagnostics, tests). */
  readonly connections: ReadonlySet<SyncConnection>;
  /** Starts answering WebSocket upgrades on `server`. */
  attach(server: Server): void;
  /**
   * Roles, grants, memberships or tokens may have changed (any write, here or
   * in another process): re-check every open connection soon and close those
   * that lost access (4401 token revoked, 4404 no longer visible).
   */
  accessChanged(): void;
  /** Refuses new upgrades and closes every connection with 1001 (going away). */
  close(): Promise<void>;
}

const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/**
 * Answers an upgrade request with a plain HTTP error on the raw socket (before
 * any WebSocket handshake), in the API's error shape, then closes it.
 */
function refuse(socket: Duplex, status: number, message: string, retryAfterS?: number): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(errorBody(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n${status === 401 ? 'WWW-Authenticate: Bearer\r\n' : ''}` +
      `${retryAfterS ? `Retry-After: ${retryAfterS}\r\n` : ''}\r\n${body}`,
  );
}

/**
 * Serves the y-websocket protocol on an HTTP server's 'upgrade' event:
 * `/v1/sync/spaces/:spaceId` (content) and `/v1/sync/spaces/:spaceId/discussion`.
 * The token comes from `?token=` (browsers cannot set headers on a
 * WebSocket), `Authorization: Bearer`, or the web app's session cookie. Unknown/missing token -> 401, a
 * space the caller cannot see (or an unknown path) -> 404, both before the
 * upgrade.
 */
export function createSyncEndpoint(deps: SyncDeps, options: Partial<SyncOptions> = {}): SyncEndpoint {
  const settings = { ...DEFAULT_SYNC_OPTIONS, ...options };
  const wss = new WebSocketServer({ noServer: true, maxPayload: settings.maxPayloadBytes, perMessageDeflate: false });
  const connections = new Set<SyncConnection>();
  let closing = false;
  /** Counts access changes, so an upgrade authorized before one (and attached after its sweep) is checked again. */
  let accessChanges = 0;

  /** The session cookie of a page of this server (never another site's: cross-site WebSocket hijacking). */
  const cookieToken = (req: IncomingMessage): string | undefined =>
    deps.publicUrl && isSameOrigin(req.headers, deps.publicUrl(), false)
      ? sessionTokenFromCookies(req.headers.cookie)
      : undefined;

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const target = matchSyncPath(url.pathname);
    if (!target) return refuse(socket, 404, `No route for GET ${url.pathname}`);
    if (closing) return refuse(socket, 503, 'The server is shutting down');
    const token = url.searchParams.get('token') || bearerToken(req.headers.authorization) || cookieToken(req);
    const changesBefore = accessChanges;
    const claim = await deps.guard?.admit(req, token ?? undefined);
    if (claim?.wait)
      return refuse(
        socket,
        429,
        `Too many failed authentications from this address; retry in ${claim.wait} s`,
        claim.wait,
      );
    let access: Awaited<ReturnType<UpgradeAuthorizer>> | undefined;
    try {
      access = await deps.authorize(token ?? undefined, target);
    } finally {
      claim?.settle(access === 401 ? 'failed' : access === undefined ? 'other' : 'accepted');
    }
    if (access === 401)
      return refuse(
        socket,
        401,
        token ? 'Invalid API token' : 'Authentication required: pass ?token= or "Authorization: Bearer <token>"',
      );
    if (access === 404) return refuse(socket, 404, 'Space not found');
    if (closing || socket.destroyed) return refuse(socket, 503, 'The server is shutting down');
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new SyncConnection(ws, deps.hub, access, deps.log);
      connections.add(connection);
      ws.on('close', () => connections.delete(connection));
      // Access changed while this upgrade was being authorized: the sweep may have run before it was listed.
      if (accessChanges !== changesBefore) sweep.trigger();
    });
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A client resetting the TCP connection mid-handshake must not crash the process (unhandled 'error').
    socket.on('error', () => undefined);
    upgrade(req, socket, head).catch((err) => {
      deps.log.error({ err }, 'sync: upgrade failed');
      refuse(socket, 503, 'The service is temporarily unavailable; retry shortly');
    });
  };

  const sweep = new AccessSweep(() => connections, deps.log, { intervalMs: settings.accessSweepMs });
  const heartbeat = setInterval(() => {
    for (const c of connections) c.heartbeat();
    // A backstop for changes nobody announced (the admin CLI writing to PostgreSQL without Redis).
    sweep.trigger();
  }, settings.heartbeatMs);
  heartbeat.unref();

  return {
    connections,
    attach(server) {
      server.on('upgrade', onUpgrade);
    },
    accessChanged() {
      accessChanges++;
      if (connections.size > 0) sweep.trigger();
    },
    async close() {
      closing = true;
      clearInterval(heartbeat);
      sweep.close();
      const sockets = [...wss.clients];
      for (const c of connections) c.close(CloseCode.goingAway, 'server shutting down');
      // Give clients a moment to answer the close frame, then cut the rest: an unresponsive peer must not hold up shutdown.
      const deadline = Date.now() + 2_000;
      while (sockets.some((ws) => ws.readyState !== ws.CLOSED) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      for (const ws of sockets) if (ws.readyState !== ws.CLOSED) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
