import type { SecretBox } from './store/secret-box';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Mailer } from './mail';
import type { Urls } from './urls';
import type { CachingDb } from './store/caching-db';
import type { Storage } from './store/file-storage';
import type { DocHub } from './docs/hub';
import type { OutdatedForks } from './docs/outdated-forks';
import type { Revisions } from './docs/revisions';
import type { Snapshots } from './docs/snapshots';
import type { SyncEndpoint } from './docs/ws';
import type { RedisFanout } from './fanout/redis-fanout';
import type { MarkdownService } from './markdown/service';
import type { RateLimits } from './http/rate-limiter';
import type { JobRunner } from './jobs/runner';
import type { IntegrationServices } from './integrations';

/**
 * Every long-lived service of one server, built once in server.ts and handed
 * to the HTTP modules. Modules take what they need from here; none builds a
 * service of its own or reaches into the Fastify instance for one.
 */
export interface AppContext {
  config: Config;
  /** The database behind the read cache. */
  db: CachingDb;
  clock: Clock;
  urls: Urls;
  log: FastifyBaseLogger;
  mailer: Mailer;
  /** File bytes and signed URLs. */
  storage: Storage;
  /** The live Yjs documents (collaboration core): read with withDoc, write with change. */
  hub: DocHub;
  /** Live edits -> revisions (REST writes call revise() to make one at once). */
  snapshots: Snapshots;
  /** The one cache of loaded revisions and their serialized forms. */
  revisions: Revisions;
  /** Whether change requests' forks lack changes of their space (cached per pair). */
  outdatedForks: OutdatedForks;
  /** The WebSocket sync endpoint (open connections, for metrics). */
  sync: SyncEndpoint;
  /** Markdown parsing off the event loop (worker pool, time budget, limits), results cached per text. */
  markdown: MarkdownService;
  /** Fan-out to the other server processes, when FOLIO_REDIS_URL is set. */
  fanout: RedisFanout | undefined;
  /** Rate limits (per token, per client address), shared through Redis when configured. */
  rateLimits: RateLimits;
  /** Background work (spec processing, imports, syncs…): queued in the database, run once across processes. */
  jobRunner: JobRunner;
  /** Seals stored secrets (Git credentials) with the server's key (FOLIO_SECRET_KEY or the data folder's secret.key). */
  secrets: SecretBox;
  /** Integrations' events (dispatcher, triggers, block rendering): integrations/. */
  integrations: IntegrationServices;
}
