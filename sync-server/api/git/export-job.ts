import type { AppContext } from '../../context';
import { JobError, type JobKind } from '../../jobs/runner';
import type { Baseline } from '../../git-sync/layout';
import { saveGitSynced } from '../../store/git-sync';
import { loadSpaceRow } from '../../store/spaces';
import { repoAccess } from './access';
import { GIT_EXPORT_JOB, type GitJobPayload } from './job-payload';
import { asJobError, failureMessage, isStale, startOperation } from './operation-log';
import { GIT_OPERATION_TIMEOUT_MS } from './present';
import { spaceContent } from './space-content';

/** What an export leaves on its job. */
export interface ExportOutcome {
  commit: string | null;
  /** Paths written or deleted (0: the repository already held the space: no commit). */
  changed: number;
  skipped?: 'stale';
}

const DEFAULT_MESSAGE = 'Update from Folio';

/**
 * The export job: read the branch, make sure it is where the last sync left it (a branch that moved
 * holds commits this space has not imported: refused unless `force`), let the layout codec say which
 * files differ from the space's current revision (only those: an untouched page keeps its bytes),
 * and push them as one commit on the branch. Nothing changed: no commit.
 */
export function gitExportJob(ctx: AppContext): JobKind<GitJobPayload, ExportOutcome> {
  return {
    kind: GIT_EXPORT_JOB,
    maxAttempts: 3,
    timeoutMs: GIT_OPERATION_TIMEOUT_MS,
    async run({ job, signal, progress }) {
      const payload = job.payload;
      const { row, record } = await startOperation(ctx, payload, 'export');
      if (isStale(row, payload)) {
        await record({ state: 'success', endedAt: ctx.clock.now().toISOString() });
        return { commit: row.last_commit, changed: 0, skipped: 'stale' };
      }
      try {
        // Git and the layout codec load with the first sync, not at boot.
        const [{ commitAndPush, readBranch }, { writeRepository }] = await Promise.all([
          import('../../git-sync/transport'),
          import('../../git-sync/layout'),
        ]);
        const access = repoAccess(ctx, row, signal);
        const branch = await readBranch(access);
        // A run killed after its push landed but before it recorded it finds its own commit on the branch: it
        // started from the last synced commit (its progress says so), and the branch now holds what it pushed.
        const resumedFrom = (job.progress as { pushingFrom?: string | null } | null)?.pushingFrom;
        const resumed = resumedFrom !== undefined && resumedFrom === row.last_commit;
        if (!payload.force && !resumed && row.last_commit && branch.commit !== row.last_commit)
          throw new JobError(
            'DIVERGED',
            `The branch ${row.ref} has commits this space has not imported: import the repository first, or export with "force" to replace them`,
          );
        const space = await loadSpaceRow(ctx.db, payload.spaceId);
        const revision = space && (await ctx.revisions.get(space.revision));
        if (!revision) throw new JobError('NOT_FOUND', 'The space or its content no longer exists');
        const previous = (row.baseline ?? undefined) as Baseline | undefined;
        const content = await spaceContent(ctx, revision, previous);
        const { changes, baseline } = writeRepository(content, previous, branch.files, {
          projectDirectory: row.project_directory,
        });
        if (resumed && branch.commit !== row.last_commit && changes.size > 0)
          throw new JobError(
            'DIVERGED',
            `The branch ${row.ref} moved while an interrupted export was pending: import the repository first, or export with "force"`,
          );
        const author = await authorOf(ctx, payload.userId);
        // Recorded before pushing: a run killed mid-push can tell its own commit from someone else's.
        await progress({ pushingFrom: branch.commit });
        const pushed = await commitAndPush(access, {
          parent: branch.commit,
          files: changes,
          message: payload.commitMessage?.trim() || DEFAULT_MESSAGE,
          author,
          ...(payload.force ? { force: true } : {}),
        });
        if ('refused' in pushed)
          throw new JobError(
            'DIVERGED',
            `The branch ${row.ref} moved while the export ran: import the repository first, or export with "force"`,
            true,
          );
        // A standalone export is a snapshot: the space's sync stays where it was.
        if (!payload.standalone)
          await saveGitSynced(ctx.db, payload.spaceId, {
            baseline,
            commit: pushed.commit,
            timestamp: payload.timestamp ? new Date(payload.timestamp) : null,
          });
        await record({
          state: 'success',
          endedAt: ctx.clock.now().toISOString(),
          ...(pushed.commit ? { commit: pushed.commit } : {}),
        });
        return { commit: pushed.commit, changed: changes.size };
      } catch (err) {
        await record({ state: 'failure', endedAt: ctx.clock.now().toISOString(), error: failureMessage(err) });
        throw asJobError(err);
      }
    },
  };
}

/** The commit's author: who asked for the export, as the server knows them. */
async function authorOf(ctx: AppContext, userId: string): Promise<{ name: string; email: string }> {
  const [user] = await ctx.db.query<{ display_name: string; email: string | null }>(
    'SELECT display_name, email FROM users WHERE id = $1',
    [userId],
  );
  return {
    name: user?.display_name?.trim() || 'Folio',
    email: user?.email ?? `${userId}@users.folio.invalid`,
  };
}
