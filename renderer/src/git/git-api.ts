import { ApiError, type ApiClient } from '../api/client';

/**
 * Git sync as the app calls it: GitBook's Git operations of a space (`POST …/git/import` and
 * `…/git/export`, answered 204 and run as jobs on the server), its state (`GET …/git/info`, 404 when
 * the space has none), forgetting it (`DELETE …/git/legacy-installation`), and Folio's automatic
 * sync settings (`GET/PATCH …/git/settings`).
 */

export type GitDirection = 'import' | 'export';

/** The newest operation of the space's Git sync. */
export interface GitOperation {
  state: 'running' | 'success' | 'failure';
  direction: GitDirection;
  startedAt: string;
  endedAt?: string;
  /** Why it failed, in the server's words (credentials are never in it). */
  error?: string;
}

/** GitBook's GitSyncState, with Folio's `host`, `ref`, `projectDirectory` and `commit`. */
export interface GitSyncInfo {
  installationProvider?: string;
  repoName?: string;
  /** The repository's URL, never with credentials. */
  url?: string;
  updatedAt?: string;
  operation?: GitOperation;
  host?: string;
  ref?: string;
  projectDirectory?: string;
  /** The commit of the last sync. */
  commit?: string;
}

/** Folio's automatic sync of a space. */
export interface GitSettings {
  exportOnMerge: boolean;
  importOnPush: boolean;
  pollMinutes: number | null;
  /** The push webhook's secret address: for the space's admins only (absent for others), null until first enabled. */
  webhookUrl?: string | null;
  lastPolledAt: string | null;
}

export interface GitSettingsChange {
  exportOnMerge?: boolean;
  importOnPush?: boolean;
  pollMinutes?: number | null;
  rotateWebhookSecret?: true;
}

/** The body of an import or an export (GitBook's ImportGitRepository / ExportToGitRepository). */
export interface GitOperationBody {
  url: string;
  ref: string;
  repoProjectDirectory?: string;
  commitMessage?: string;
  force?: boolean;
}

const base = (spaceId: string) => `/spaces/${encodeURIComponent(spaceId)}/git`;

/** The space's Git sync, or null when it has none. */
export async function getGitInfo(api: ApiClient, spaceId: string): Promise<GitSyncInfo | null> {
  try {
    return await api.request<GitSyncInfo>(`${base(spaceId)}/info`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/** The automatic sync settings, or 'unavailable' when the server has no such endpoint (404). */
export async function getGitSettings(api: ApiClient, spaceId: string): Promise<GitSettings | 'unavailable'> {
  try {
    return await api.request<GitSettings>(`${base(spaceId)}/settings`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return 'unavailable';
    throw err;
  }
}

export function updateGitSettings(api: ApiClient, spaceId: string, change: GitSettingsChange): Promise<GitSettings> {
  return api.request<GitSettings>(`${base(spaceId)}/settings`, { method: 'PATCH', body: change });
}

/** Queues an import or an export; the operation's progress is read from `getGitInfo`. */
export function startGitOperation(
  api: ApiClient,
  spaceId: string,
  direction: GitDirection,
  body: GitOperationBody,
): Promise<void> {
  return api.request<void>(`${base(spaceId)}/${direction}`, { method: 'POST', body });
}

/** Forgets the space's Git sync and its stored credentials (the repository and the pages stay). */
export function disconnectGit(api: ApiClient, spaceId: string): Promise<void> {
  return api.request<void>(`${base(spaceId)}/legacy-installation`, { method: 'DELETE' });
}
