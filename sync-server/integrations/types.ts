import type { Clock } from '../clock';
import type { Db, Queryable } from '../store/db';
import type { SecretBox } from '../store/secret-box';
import type { Urls } from '../urls';
import type { AllowList } from '../outbound';
import type { ContentInstallationRow, InstallationRow } from '../store/integration-installations';
import type { IntegrationRow } from '../store/integrations';
import type { IntegrationSandbox, SandboxRequest, SandboxResponse } from '../integration-sandbox/types';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The dispatcher's vocabulary (issue 32): what an event is addressed to, what delivering it gave,
 * and what the wiring (server.ts) hands in — the presenters of the API objects an integration's
 * `environment` holds, the token minting, the sandbox and this server's own API — since this layer
 * (7) imports neither the HTTP modules nor the app.
 */

/** Who an event is for: an integration, and the installation (space, site) it concerns. */
export interface EventTarget {
  integrationName: string;
  installationId?: string;
  /** The installation's organization, kept with the event (it outlives an uninstalled installation). */
  organizationId?: string;
  spaceId?: string;
  siteId?: string;
}

/** An event to dispatch: its target and GitBook's Event without `eventId` (the dispatcher gives it). */
export interface EventSpec extends EventTarget {
  event: { type: string } & Record<string, unknown>;
  /** The `fetch-body` field (a public endpoint's request body); none for GitBook-generated events. */
  fetchBody?: Uint8Array;
}

/** One line of an event's trace, as GitBook's IntegrationEventLog reads it. */
export interface TraceEntry {
  timestamp: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
}

/** A response the integration gave (the tunnel's or the script's). */
export type IntegrationResponse = SandboxResponse;

/** What one delivery attempt gave. */
export type DeliveryResult =
  | { ok: true; response: IntegrationResponse; trace: TraceEntry[] }
  | {
      ok: false;
      /** Why, in words for the trace and the caller (no secrets). */
      reason: string;
      /** Whether another attempt may go otherwise (see event-job.ts for the rules). */
      retryable: boolean;
      /** The integration's own answer when it gave one (a 4xx/5xx), passed through by public endpoints. */
      response?: IntegrationResponse;
      trace: TraceEntry[];
    };

/** Presenters of the API objects of an `environment` (api/ builds them; see server.ts). */
export interface EnvironmentPresenters {
  /** GitBook's Integration, as the integration itself sees it. */
  integration(row: IntegrationRow): Promise<Record<string, unknown>>;
  installation(integration: IntegrationRow, row: InstallationRow): { status: string } & Record<string, unknown>;
  spaceInstallation(
    integration: IntegrationRow,
    row: ContentInstallationRow,
  ): { status: string } & Record<string, unknown>;
  siteInstallation(
    integration: IntegrationRow,
    row: ContentInstallationRow,
  ): { status: string } & Record<string, unknown>;
  /** GitBook's User as an integration sees one (no email: an installation is no member). */
  user(row: {
    id: string;
    display_name: string;
    email: string | null;
    photo_url: string | null;
  }): Record<string, unknown>;
}

/** identity/integration-tokens.ts's mintIntegrationTokens. */
export type MintIntegrationTokens = (
  db: Queryable,
  now: Date,
  target: { integrationName: string; installationId?: string },
) => Promise<{ integration: string; installation?: string; expiresAt: Date }>;

/** Serves a request to this server's own API in-process (Fastify's inject; the app is built after the dispatcher). */
export type InProcessApi = (request: SandboxRequest, signal: AbortSignal) => Promise<SandboxResponse>;

/** What the dispatcher is built with. */
export interface DispatcherDeps {
  db: Db;
  clock: Clock;
  urls: Urls;
  log: FastifyBaseLogger;
  secrets: SecretBox;
  /** Key material for the signing secrets of environments (see signing.ts). */
  signingKey: string;
  outboundAllow: AllowList;
  present: EnvironmentPresenters;
  mintTokens: MintIntegrationTokens;
  /** The sandbox, started on first use (heavy: QuickJS and its workers load only then); undefined: none. */
  sandbox?: () => Promise<IntegrationSandbox>;
  /** Stops the sandbox's workers if it was started (server shutdown). */
  closeSandbox?: () => Promise<void>;
  enqueueJob(
    job: { kind: string; payload: unknown; subject: string; runAfter?: Date },
    tx: Queryable,
  ): Promise<{ id: string }>;
}
