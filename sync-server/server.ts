import type { FastifyInstance } from 'fastify';
import { mkdir } from 'node:fs/promises';
import type { Config } from './config';
import { buildApp } from './app';
import { systemClock, Urls, type AppContext, type Clock } from './context';
import { createMailer } from './mail';
import type { Db } from './store/db';
import { migrate } from './store/migrate';
import { openPglite } from './store/pglite';
import { openPostgres } from './store/postgres';
import { withReadCache } from './store/caching-db';
import { bootstrapAdmin, type AdminBootstrap } from './users';
import { startJobs, type Jobs } from './jobs/scheduler';
import { DocHub, type HubOptions } from './docs/hub';
import { attachSync, type SyncEndpoint, type SyncOptions } from './docs/ws';
import { RedisFanout } from './fanout/redis-fanout';

export interface StartOptions {
  clock?: Clock;
  /** Open PGlite in memory instead of in dataDir (tests). */
  inMemory?: boolean;
  /** Whether to log requests (pino); default from config.logLevel. */
  logger?: boolean | object;
  /** Overrides of the document hub's tunables (idle unload, compaction thresholds). */
  hub?: Partial<HubOptions>;
  /** Overrides of the WebSocket endpoint's settings. */
  sync?: Partial<SyncOptions>;
}

export interface RunningServer {
  app: FastifyInstance;
  ctx: AppContext;
  /** http://host:port actually listened on. */
  url: string;
  admin: AdminBootstrap;
  jobs: Jobs;
  /** The WebSocket sync endpoint. */
  sync: SyncEndpoint;
  /** Fan-out to the other server processes (FOLIO_REDIS_URL), if configured. */
  fanout: RedisFanout | undefined;
  close(): Promise<void>;
}

/** Opens the configured database (PostgreSQL when a URL is set, else PGlite) without the read cache. */
async function openRawDatabase(config: Config, inMemory: boolean): Promise<Db> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  if (!inMemory) await mkdir(config.dataDir, { recursive: true });
  return openPglite(inMemory ? undefined : `${config.dataDir}/pglite`);
}

/** Opens the configured database (PostgreSQL when a URL is set, else PGlite) behind the read cache. */
export async function openDatabase(config: Config, inMemory = false): Promise<Db> {
  return withReadCache(await openRawDatabase(config, inMemory));
}

/**
 * Starts a complete server: database, migrations, admin bootstrap, HTTP
 * listener and periodic jobs. Used by main.ts and by the tests (port 0).
 */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const raw = await openRawDatabase(config, options.inMemory ?? false);
  const db = withReadCache(raw);
  let fanout: RedisFanout | undefined;
  try {
    await migrate(db);
    const admin = await bootstrapAdmin(db, config.dataDir, config.adminToken);
    const logger = options.logger ?? (config.logLevel === 'silent' ? false : { level: config.logLevel });
    const urls = new Urls(config.publicUrl);
    // Document writes (many per second while people type) go around the read cache: they touch only
    // doc_updates/doc_states, which nothing reads through the cache, and must not flush the cached
    // tokens, roles and spaces on every keystroke.
    const hub = new DocHub(raw, options.hub);
    const ctx: AppContext = { config, db, clock: options.clock ?? systemClock, urls, mailer: undefined as never, hub };
    const app = await buildApp(ctx, { logger });
    ctx.mailer = createMailer(config.smtpUrl, config.smtpFrom, app.log);
    hub.log = app.log;
    fanout = await startFanout(config, db, hub, app.log);
    app.fanout = fanout;
    const sync = attachSync(app, ctx, options.sync);
    app.socketCount = () => sync.connections.size;
    const address = await app.listen({ port: config.port, host: config.host });
    const url = address.replace('[::1]', '127.0.0.1');
    // Port 0: the public URL is only known now that the OS picked a port.
    if (config.publicUrl.endsWith(':0')) urls.setBase(url);
    const jobs = startJobs(ctx, app.log);
    return {
      app,
      ctx,
      url,
      admin,
      jobs,
      sync,
      fanout,
      async close() {
        jobs.stop();
        // Sockets first (the HTTP server would otherwise wait for them), then REST requests in flight,
        // then the hub commits what is queued, and only then the database goes.
        await sync.close();
        await app.close();
        await hub.close();
        await fanout?.close();
        await db.close();
      },
    };
  } catch (err) {
    await fanout?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw err;
  }
}

/**
 * With FOLIO_REDIS_URL, connects the hub and the read cache to the other
 * server processes: documents are shared live, and a write anywhere drops
 * every process's cached reads. Fails the start when Redis does not answer.
 */
async function startFanout(
  config: Config,
  db: ReturnType<typeof withReadCache>,
  hub: DocHub,
  log: FastifyInstance['log'],
): Promise<RedisFanout | undefined> {
  if (!config.redisUrl) return undefined;
  const fanout = new RedisFanout(config.redisUrl, config.redisPrefix, log);
  const bridge = hub.useFanout(fanout, () => db.cache.invalidateFromElsewhere());
  try {
    await fanout.start(bridge);
  } catch (err) {
    await fanout.close();
    throw new Error(`Redis at ${redactUrl(config.redisUrl)} is not reachable: ${(err as Error).message}`, {
      cause: err,
    });
  }
  db.cache.onInvalidate = () => fanout.publishInvalidate();
  return fanout;
}

/** A URL without its password, for messages. */
function redactUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}
