import type { AppContext } from '../../context';
import { parseAllowList } from '../../outbound';
import { cacheDirFor } from '../../git-sync/transport/cache-dir';
import type { GitCredentials, RepoAccess } from '../../git-sync/transport/types';
import type { GitSyncRow } from '../../store/git-sync';

/**
 * How the Git jobs reach a space's repository: its URL and branch, the credentials opened from
 * their sealed form (bound to the space: a sealed value copied to another space does not open),
 * the cache folder of that repository, and the server's outbound policy and download bound.
 */

/** The context sealed credentials are bound to. */
export const credentialsContext = (spaceId: string) => `git-credentials:${spaceId}`;

export function sealCredentials(ctx: AppContext, spaceId: string, credentials: GitCredentials): string {
  return ctx.secrets.seal(JSON.stringify(credentials), credentialsContext(spaceId));
}

function openCredentials(ctx: AppContext, row: GitSyncRow): GitCredentials | undefined {
  if (!row.credentials) return undefined;
  const value = JSON.parse(ctx.secrets.open(row.credentials, credentialsContext(row.space_id))) as GitCredentials;
  return { username: String(value.username ?? ''), password: String(value.password ?? '') };
}

export function repoAccess(ctx: AppContext, row: GitSyncRow, signal?: AbortSignal): RepoAccess {
  const credentials = openCredentials(ctx, row);
  return {
    url: row.url,
    ref: row.ref,
    ...(credentials ? { credentials } : {}),
    cacheDir: cacheDirFor(ctx.config.dataDir, row.url),
    outbound: { allow: parseAllowList(ctx.config.outboundAllow), maxBytes: ctx.config.gitMaxBytes },
    ...(signal ? { signal } : {}),
  };
}
