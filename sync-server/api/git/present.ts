import type { GitSyncRow } from '../../store/git-sync';

/** How long one Git operation may run (the jobs' timeout), as GitSyncState.operationTimeout says. */
export const GIT_OPERATION_TIMEOUT_MS = 10 * 60_000;

/**
 * GitBook's provider enum has no "any Git host": the caller's gitInfo.provider when given, else the
 * host's (GitLab by name), else GitHub. `host` (a Folio field) names the real one.
 */
function providerOf(row: GitSyncRow): 'github' | 'gitlab' {
  if (row.provider === 'github' || row.provider === 'gitlab') return row.provider;
  return /gitlab/i.test(new URL(row.url).hostname) ? 'gitlab' : 'github';
}

/** `owner/name` from the repository URL's path (without `.git`). */
function repoName(url: string): string {
  return new URL(url).pathname.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '');
}

/** A space's Git sync as GitBook's GitSyncState (never with credentials: they are not even read here). */
export function presentGitSync(row: GitSyncRow) {
  const op = row.operation;
  return {
    installationId: `git-${row.space_id}`,
    installationProvider: providerOf(row),
    installationStatus: 'active' as const,
    repoName: repoName(row.url),
    url: row.tree_url ?? row.provider_url ?? row.url,
    updatedAt: row.updated_at.toISOString(),
    operationTimeout: GIT_OPERATION_TIMEOUT_MS,
    ...(op
      ? {
          operation: {
            state: op.state,
            direction: op.direction,
            startedAt: op.startedAt,
            ...(op.endedAt ? { endedAt: op.endedAt } : {}),
            ...(op.error ? { error: op.error } : {}),
          },
        }
      : {}),
    // Folio's own fields: where the repository is and what the last sync left.
    host: new URL(row.url).host,
    ref: row.ref,
    ...(row.project_directory ? { projectDirectory: row.project_directory } : {}),
    ...(row.last_commit ? { commit: row.last_commit } : {}),
  };
}
