import { queryOne, type Queryable } from './db';

/**
 * A space's Git sync state (migration 0021): where its repository is, and what the last import
 * or export left (the layout baseline and commit the next run starts from). Written by the Git
 * API (configuration, when an operation is asked for) and by the Git jobs (outcome).
 */

/** The newest operation, as GitSyncState.operation shows it. */
export interface GitOperationRecord {
  state: 'running' | 'failure' | 'success' | 'timeout';
  direction: 'import' | 'export';
  startedAt: string;
  endedAt?: string;
  error?: string;
  /** The commit the operation read or wrote. */
  commit?: string;
  /** The revision an import made (none when nothing changed). */
  revision?: string;
  /** The change request an import opened for conflicting pages. */
  changeRequest?: string;
}

export interface GitSyncRow {
  space_id: string;
  url: string;
  credentials: string | null;
  ref: string;
  project_directory: string;
  tree_url: string | null;
  commit_url: string | null;
  provider: string | null;
  provider_url: string | null;
  baseline: unknown;
  last_commit: string | null;
  last_timestamp: Date | null;
  operation: GitOperationRecord | null;
  updated_at: Date;
  /** Settings of the sync that keeps itself up to date (migration 0022: see GitSyncSettingsPatch). */
  export_on_merge: boolean;
  import_on_push: boolean;
  poll_minutes: number | null;
  /** The webhook URL's secret, sealed (api/git/webhook-secret.ts). */
  webhook_secret: string | null;
  last_polled_at: Date | null;
  /** Who automatic imports run as: the person who last saved the settings (null once that user is gone). */
  auto_user_id: string | null;
}

export function findGitSync(db: Queryable, spaceId: string): Promise<GitSyncRow | undefined> {
  return queryOne<GitSyncRow>(db, 'SELECT * FROM space_git_sync WHERE space_id = $1', [spaceId]);
}

/** Where the repository is, as the newest import or export call gave it. */
export interface GitSyncConfig {
  url: string;
  /** Sealed credentials; undefined keeps the stored ones (a later call without them does not forget them). */
  credentials?: string | null;
  ref: string;
  projectDirectory: string;
  treeUrl?: string;
  commitUrl?: string;
  provider?: string;
  providerUrl?: string;
}

/**
 * Records the configuration. A different repository, branch or directory starts over: the
 * baseline and commit of another tree would make the next diff wrong.
 */
export async function saveGitSyncConfig(db: Queryable, spaceId: string, c: GitSyncConfig, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO space_git_sync (space_id, url, credentials, ref, project_directory, tree_url, commit_url, provider,
                                 provider_url, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (space_id) DO UPDATE SET
       baseline = CASE WHEN space_git_sync.url = EXCLUDED.url AND space_git_sync.ref = EXCLUDED.ref
                        AND space_git_sync.project_directory = EXCLUDED.project_directory
                       THEN space_git_sync.baseline ELSE NULL END,
       last_commit = CASE WHEN space_git_sync.url = EXCLUDED.url AND space_git_sync.ref = EXCLUDED.ref
                        AND space_git_sync.project_directory = EXCLUDED.project_directory
                       THEN space_git_sync.last_commit ELSE NULL END,
       url = EXCLUDED.url,
       credentials = CASE WHEN $11 THEN EXCLUDED.credentials ELSE space_git_sync.credentials END,
       ref = EXCLUDED.ref,
       project_directory = EXCLUDED.project_directory,
       tree_url = COALESCE(EXCLUDED.tree_url, space_git_sync.tree_url),
       commit_url = COALESCE(EXCLUDED.commit_url, space_git_sync.commit_url),
       provider = COALESCE(EXCLUDED.provider, space_git_sync.provider),
       provider_url = COALESCE(EXCLUDED.provider_url, space_git_sync.provider_url),
       updated_at = EXCLUDED.updated_at`,
    [
      spaceId,
      c.url,
      c.credentials ?? null,
      c.ref,
      c.projectDirectory,
      c.treeUrl ?? null,
      c.commitUrl ?? null,
      c.provider ?? null,
      c.providerUrl ?? null,
      now,
      c.credentials !== undefined,
    ],
  );
}

/** Records the newest operation's state. */
export async function saveGitOperation(db: Queryable, spaceId: string, op: GitOperationRecord): Promise<void> {
  await db.query('UPDATE space_git_sync SET operation = $2 WHERE space_id = $1', [spaceId, JSON.stringify(op)]);
}

/** Records what a successful run left: the tree it synced (baseline, commit) and the operation's timestamp. */
export async function saveGitSynced(
  db: Queryable,
  spaceId: string,
  synced: { baseline: unknown; commit: string | null; timestamp: Date | null },
): Promise<void> {
  await db.query(
    `UPDATE space_git_sync SET baseline = $2, last_commit = $3,
       last_timestamp = GREATEST(last_timestamp, $4::timestamptz)
     WHERE space_id = $1`,
    [spaceId, JSON.stringify(synced.baseline), synced.commit, synced.timestamp],
  );
}

/** Forgets the space's Git sync (idempotent). */
export async function deleteGitSync(db: Queryable, spaceId: string): Promise<void> {
  await db.query('DELETE FROM space_git_sync WHERE space_id = $1', [spaceId]);
}

/** A change of the automatic sync's settings; undefined fields keep their value. */
export interface GitSyncSettingsPatch {
  exportOnMerge?: boolean;
  importOnPush?: boolean;
  /** Minutes between polls (5..1440), or null for none. */
  pollMinutes?: number | null;
  /** A new sealed webhook secret (the old URL stops working). */
  webhookSecret?: string;
  /** Who saved the settings: automatic imports run as them. */
  autoUserId: string;
}

const SETTING_COLUMNS = {
  exportOnMerge: 'export_on_merge',
  importOnPush: 'import_on_push',
  pollMinutes: 'poll_minutes',
  webhookSecret: 'webhook_secret',
  autoUserId: 'auto_user_id',
} as const satisfies Record<keyof GitSyncSettingsPatch, string>;

/** Saves the settings given; the row as it is now, or undefined when the space has no Git sync. */
export async function saveGitSyncSettings(
  db: Queryable,
  spaceId: string,
  patch: GitSyncSettingsPatch,
): Promise<GitSyncRow | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [spaceId];
  for (const [key, column] of Object.entries(SETTING_COLUMNS) as [keyof GitSyncSettingsPatch, string][]) {
    if (patch[key] === undefined) continue;
    params.push(patch[key]);
    sets.push(`${column} = $${params.length}`);
  }
  return queryOne<GitSyncRow>(
    db,
    `UPDATE space_git_sync SET ${sets.join(', ')} WHERE space_id = $1 RETURNING *`,
    params,
  );
}

/**
 * The Git syncs whose poll is due at `now` (never polled, or last polled `poll_minutes` ago or
 * more), of spaces that are not deleted, longest waiting first.
 */
export function dueGitPolls(db: Queryable, now: Date, limit: number): Promise<GitSyncRow[]> {
  return db.query<GitSyncRow>(
    `SELECT g.* FROM space_git_sync g JOIN spaces s ON s.id = g.space_id AND s.deleted_at IS NULL
     WHERE g.poll_minutes IS NOT NULL
       AND (g.last_polled_at IS NULL OR g.last_polled_at <= $1::timestamptz - g.poll_minutes * interval '1 minute')
     ORDER BY g.last_polled_at NULLS FIRST, g.space_id
     LIMIT $2`,
    [now, limit],
  );
}

/** Records that the poller looked at this space's repository at `now` (the next poll is due from there). */
export async function markGitPolled(db: Queryable, spaceId: string, now: Date): Promise<void> {
  await db.query('UPDATE space_git_sync SET last_polled_at = $2 WHERE space_id = $1', [spaceId, now]);
}

/**
 * Whether the newest job of `subject` is an import of `kind` still waiting to start (and not a
 * standalone one): it will read the branch as it is when it runs, so another import asked for now
 * would only repeat it.
 */
export async function importWaiting(db: Queryable, subject: string, kind: string): Promise<boolean> {
  const newest = await queryOne<{ kind: string; state: string; standalone: boolean }>(
    db,
    `SELECT kind, state, COALESCE(payload->>'standalone', 'false') = 'true' AS standalone
     FROM jobs WHERE subject = $1 ORDER BY seq DESC LIMIT 1`,
    [subject],
  );
  return !!newest && newest.kind === kind && newest.state === 'queued' && !newest.standalone;
}
