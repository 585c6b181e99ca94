import type { AppContext } from '../../context';
import type { Principal } from '../../identity/principal';
import { ApiError, badRequest, notFound } from '../../http/errors';
import { splitCredentials } from '../../git-sync/transport/credentials';
import { deleteGitSync, findGitSync, saveGitOperation, saveGitSyncConfig } from '../../store/git-sync';
import { requireSpace } from '../spaces/service';
import { sealCredentials } from './access';
import { presentGitSync } from './present';
import type { GitOperationBody } from './schemas';
import { GIT_EXPORT_JOB, GIT_IMPORT_JOB, gitSubject, type GitJobPayload } from './job-payload';

/**
 * GitBook's Git operations on a space: import and export are queued as jobs (one at a time per
 * space, in order: see import-job.ts and export-job.ts) after the repository they name is recorded
 * as the space's Git sync; `info` shows that record; deleting the legacy installation forgets it.
 */

/** A branch ref as Git allows it (no spaces, `..`, control characters or `~^:?*[\`). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what a ref may not hold
const BRANCH_REF = /^refs\/heads\/(?!.*\.\.)(?!.*\/\/)[^\s~^:?*[\\\x00-\x1f\x7f]+(?<![./])$/;

function checkedUrl(raw: string): { url: string; credentials?: { username: string; password: string } } {
  const { url, credentials } = splitCredentials(raw.trim());
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('url must be the http(s) URL of a Git repository');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw badRequest('url must be the http(s) URL of a Git repository (Folio syncs over smart HTTP)');
  if (parsed.search || parsed.hash) throw badRequest('url must not have a query or a fragment');
  return { url: parsed.toString(), ...(credentials ? { credentials } : {}) };
}

/** `repoProjectDirectory` as a relative posix folder ('' for the root); `..` and absolute paths refused. */
export function projectDirectory(raw: string | undefined): string {
  const trimmed = (raw ?? '')
    .trim()
    .replace(/\\/g, '/')
    .replace(/^\.?\/+|\/+$/g, '');
  if (trimmed === '' || trimmed === '.') return '';
  const parts = trimmed.split('/');
  // eslint-disable-next-line no-control-regex -- a folder name with a control character is refused
  if (parts.some((p) => p === '..' || p === '.' || p === '' || /[\x00-\x1f]/.test(p)))
    throw badRequest('repoProjectDirectory must be a folder of the repository (no "..", no empty segments)');
  return parts.join('/');
}

export async function requestGitOperation(
  ctx: AppContext,
  p: Principal,
  spaceId: string,
  direction: 'import' | 'export',
  body: GitOperationBody,
): Promise<void> {
  const { row } = await requireSpace(ctx, p, spaceId, 'git-sync');
  const { url, credentials } = checkedUrl(body.url);
  if (!BRANCH_REF.test(body.ref)) throw badRequest('ref must name a branch, as "refs/heads/main"');
  const directory = projectDirectory(body.repoProjectDirectory);
  const timestamp = body.timestamp ? new Date(body.timestamp) : undefined;
  if (timestamp && Number.isNaN(timestamp.getTime())) throw badRequest('timestamp must be a date-time');
  const now = ctx.clock.now();
  const payload: GitJobPayload = {
    spaceId,
    organizationId: row.organization_id,
    userId: p.userId,
    ...(timestamp ? { timestamp: timestamp.toISOString() } : {}),
    ...(body.force ? { force: true } : {}),
    ...(body.standalone ? { standalone: true } : {}),
    ...(body.commitMessage !== undefined ? { commitMessage: body.commitMessage } : {}),
  };
  await ctx.db.transaction(async (tx) => {
    await saveGitSyncConfig(
      tx,
      spaceId,
      {
        url,
        // Credentials given in the URL replace the stored ones; a URL without keeps them.
        ...(credentials ? { credentials: sealCredentials(ctx, spaceId, credentials) } : {}),
        ref: body.ref,
        projectDirectory: directory,
        ...(body.repoTreeURL ? { treeUrl: body.repoTreeURL } : {}),
        ...(body.repoCommitURL ? { commitUrl: body.repoCommitURL } : {}),
        ...(body.gitInfo?.provider ? { provider: body.gitInfo.provider } : {}),
        ...(body.gitInfo?.url ? { providerUrl: body.gitInfo.url } : {}),
      },
      now,
    );
    await ctx.jobRunner.enqueue(
      {
        kind: direction === 'import' ? GIT_IMPORT_JOB : GIT_EXPORT_JOB,
        payload,
        organizationId: row.organization_id,
        subject: gitSubject(spaceId),
      },
      tx,
    );
    await saveGitOperation(tx, spaceId, { state: 'running', direction, startedAt: now.toISOString() });
  });
}

/** GitBook's getSpaceGitInfo: 404 when the space has no Git sync. */
export async function gitInfo(ctx: AppContext, p: Principal, spaceId: string) {
  await requireSpace(ctx, p, spaceId);
  const row = await findGitSync(ctx.db, spaceId);
  if (!row) throw notFound('Git sync of this space (no Git provider is set up on it)');
  return presentGitSync(row);
}

/** Forgets the space's Git sync and its credentials; idempotent (GitBook's legacy installation removal). */
export async function removeGitSync(ctx: AppContext, p: Principal, spaceId: string): Promise<void> {
  try {
    await requireSpace(ctx, p, spaceId, 'git-sync');
  } catch (err) {
    // A DELETE of what the caller cannot see (or that does not exist) is "nothing to delete", as everywhere.
    if (err instanceof ApiError && err.status === 404) return;
    throw err;
  }
  await deleteGitSync(ctx.db, spaceId);
}
