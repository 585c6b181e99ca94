import { loadSecretBox } from './store/secret-box';
import { gitExportJob } from './api/git/export-job';
import { translationRunJob } from './api/translations/run-job';
import { buildIntegrationServices, inProcessApi } from './api/integration-endpoints/services';
import { gitImportJob } from './api/git/import-job';
import { startGitPoller, type GitPoller } from './api/git/poller';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { mkdir } from 'node:fs/promises';
import { pino, type DestinationStream } from 'pino';
import type { Config } from './config';
import { buildApp } from './app';
import type { AppContext } from './context';
import { systemClock, type Clock } from './clock';
import { Urls } from './urls';
import { createMailer } from './mail';
import type { Db } from './store/db';
import { migrate } from './store/migrate';
import { openPglite } from './store/pglite';
import { withReadCache, type CachingDb } from './store/caching-db';
import { createStorage } from './store/file-storage';
import { openBlobStore } from './store/open-blob-store';
import { bootstrapAdmin, type AdminBootstrap } from './identity/users';
import { JobRunner } from './jobs/runner';
import { openApiSpecJob } from './openapi-specs/process';
import { contentImportJob } from './api/content-import/job';
import { startJobs, type Jobs } from './jobs/scheduler';
import { DocHub, type HubOptions } from './docs/hub';
import { OutdatedForks } from './docs/outdated-forks';
import { Revisions } from './docs/revisions';
import { Snapshots } from './docs/snapshots';
import { authorizeUpgrade } from './docs/access';
import { createSyncEndpoint, type SyncEndpoint, type SyncOptions } from './docs/ws';
import { searchIndexHook } from './search/indexer';
import type { RedisFanout } from './fanout/redis-fanout';
import { MarkdownService } from './markdown/service';
import { logSerializers } from './observability/log-redaction';
import { RateLimits } from './http/rate-limiter';

export interface StartOptions {
  clock?: Clock;
  /** Open PGlite in memory instead of in dataDir (tests). */
  inMemory?: boolean;
  /** Whether to log (pino options, or false for none); default from config.logLevel. */
  logger?: boolean | object;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: DestinationStream;
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
  /** Imports of the Git syncs that poll their repository (tests call `runOnce`). */
  gitPoller: GitPoller;
  /** The WebSocket sync endpoint. */
  sync: SyncEndpoint;
  /** Fan-out to the other server processes (FOLIO_REDIS_URL), if configured. */
  fanout: RedisFanout | undefined;
  close(): Promise<void>;
}

/** Opens the configured database (PostgreSQL when a URL is set, else PGlite) without the read cache. */
async function openRawDatabase(config: Config, inMemory: boolean): Promise<Db> {
  // Each backend's client is loaded only when it is the one configured (pg is not needed with PGlite).
  if (config.databaseUrl) return (await import('./store/postgres')).openPostgres(config.databaseUrl);
  if (!inMemory) await mkdir(config.dataDir, { recursive: true });
  return openPglite(inMemory ? undefined : `${config.dataDir}/pglite`);
}

/** Opens the configured database (PostgreSQL when a URL is set, else PGlite) behind the read cache. */
export async function openDatabase(config: Config, inMemory = false): Promise<Db> {
  return withReadCache(await openRawDatabase(config, inMemory));
}

/** The process logger: pino JSON lines at the configured level (silent when logging is off). */
function createLogger(config: Config, option: StartOptions['logger'], stream?: DestinationStream): FastifyBaseLogger {
  const settings = option ?? (config.logLevel === 'silent' ? false : { level: config.logLevel });
  if (settings === false) return pino({ level: 'silent' });
  // Serializers redact credentials (tokens, share keys, link signatures) from every logged request URL.
  const options = { ...(settings === true ? {} : settings), serializers: logSerializers };
  return stream ? pino(options, stream) : pino(options);
}

/**
 * Starts a complete server: database, migrations, admin bootstrap, every
 * long-lived service (built here, once, and handed to the app in the
 * context), the HTTP listener with the sync endpoint, and the periodic jobs.
 * Used by main.ts and by the tests (port 0).
 */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const raw = await openRawDatabase(config, options.inMemory ?? false);
  const db = withReadCache(raw);
  let fanout: RedisFanout | undefined;
  let rateLimits: RateLimits | undefined;
  try {
    await migrate(db);
    const admin = await bootstrapAdmin(db, config.dataDir, config.adminToken);
    const log = createLogger(config, options.logger, options.logStream);
    const clock = options.clock ?? systemClock;
    const urls = new Urls(config.publicUrl);
    // Document writes (many per second while people type) go around the read cache: they touch only
    // doc_updates/doc_states, which nothing reads through the cache, and must not flush the cached
    // tokens, roles and spaces on every keystroke.
    const hub = new DocHub(raw, options.hub, log);
    fanout = await startFanout(config, db, hub, log);
    const limits = (rateLimits = RateLimits.open(config, log));
    const snapshots = new Snapshots({
      db,
      hub,
      clock,
      quietMs: config.revisionQuietMs,
      onError: (err, documentId) => log.error({ err, documentId }, 'could not make a revision'),
    });
    // Markdown is parsed in worker threads (started on first use) within a time budget, never on the event loop.
    const markdown = new MarkdownService({
      timeoutMs: config.markdownTimeoutMs,
      onDegraded: (d, { kind, length, error }) =>
        log.warn({ reason: d.reason, kind, length, err: error }, 'markdown shown as plain text'),
    });
    snapshots.onSpaceRevision(searchIndexHook(db, markdown));
    const outdatedForks = new OutdatedForks(hub);
    const sync = createSyncEndpoint(
      {
        hub,
        log,
        authorize: (token, target) => authorizeUpgrade(db, token, target),
        guard: { admit: (req, token) => limits.attempt(limits.addressOf(req), token) },
        publicUrl: () => urls.root,
      },
      options.sync,
    );
    // Any write (here, or elsewhere over Redis) may take access away: re-check the open sockets.
    db.cache.addListener(() => sync.accessChanged());
    const secrets = await loadSecretBox({ secretKey: config.secretKey, dataDir: config.dataDir });
    const jobRunner = new JobRunner({ db, clock, log }, { leaseMs: config.jobLeaseMs });
    const ctx: AppContext = {
      config,
      db,
      clock,
      urls,
      log,
      mailer: createMailer(config.smtpUrl, config.smtpFrom, log),
      storage: await createStorage(db, await openBlobStore(config, clock), urls, clock),
      hub,
      snapshots,
      revisions: new Revisions(db),
      outdatedForks,
      sync,
      markdown,
      fanout,
      rateLimits: limits,
      jobRunner,
      secrets,
      integrations: await buildIntegrationServices({ db, clock, urls, log, secrets, config, jobRunner }, () => ctx),
    };
    // Space revisions queue `space_content_updated` to the integrations installed on the space.
    snapshots.onSpaceRevision(ctx.integrations.triggers.spaceRevisionHook);
    ctx.jobRunner.register(openApiSpecJob({ db, clock, outboundAllow: config.outboundAllow }));
    ctx.jobRunner.register(contentImportJob(ctx));
    ctx.jobRunner.register(gitImportJob(ctx));
    ctx.jobRunner.register(gitExportJob(ctx));
    ctx.jobRunner.register(translationRunJob(ctx));
    const app = await buildApp(ctx);
    ctx.integrations.dispatcher.attachApi(inProcessApi(app));
    sync.attach(app.server);
    const address = await app.listen({ port: config.port, host: config.host });
    const url = address.replace('[::1]', '127.0.0.1');
    // Port 0: the public URL is only known now that the OS picked a port.
    if (config.publicUrl.endsWith(':0')) urls.setBase(url);
    const jobs = startJobs(ctx, log);
    const gitPoller = startGitPoller(ctx);
    await ctx.jobRunner.start();
    return {
      app,
      ctx,
      url,
      admin,
      jobs,
      gitPoller,
      sync,
      fanout,
      async close() {
        jobs.stop();
        await gitPoller.stop();
        // Running jobs are aborted and queued again (without spending an attempt) for the next start.
        await ctx.jobRunner.stop();
        // Sockets first (the HTTP server would otherwise wait for them), then REST requests in flight,
        // then pending revisions, then the hub commits what is queued, and only then the database goes.
        await sync.close();
        await app.close();
        await snapshots.close();
        await markdown.close();
        await ctx.integrations.close();
        outdatedForks.close();
        await hub.close();
        await ctx.storage.blobs.close();
        await fanout?.close();
        await limits.close();
        await db.close();
      },
    };
  } catch (err) {
    await fanout?.close().catch(() => undefined);
    await rateLimits?.close().catch(() => undefined);
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
  db: CachingDb,
  hub: DocHub,
  log: FastifyBaseLogger,
): Promise<RedisFanout | undefined> {
  if (!config.redisUrl) return undefined;
  const { RedisFanout } = await import('./fanout/redis-fanout');
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
