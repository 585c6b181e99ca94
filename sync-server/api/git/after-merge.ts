import type { AppContext } from '../../context';
import { findGitSync } from '../../store/git-sync';
import { loadSpaceRow } from '../../store/spaces';
import { queueAutoOperation } from './auto-queue';

/** What afterMerge needs of the merged change request. */
export interface MergedChangeRequest {
  id: string;
  number: number;
  subject: string;
}

/** The export's commit message: the change request it comes from, by subject and number. */
export function mergeCommitMessage(cr: Pick<MergedChangeRequest, 'number' | 'subject'>): string {
  const subject = cr.subject.replace(/\s+/g, ' ').trim();
  return subject ? `${subject} (change request #${cr.number})` : `Change request #${cr.number}`;
}

/**
 * Called once a change request is merged into the space (change-requests/service.ts): when the
 * space's Git sync exports on merge, queues an export of the merged content, authored as who
 * merged. The merge has happened whatever this does: a failure to queue is logged, never thrown.
 */
export async function afterMerge(
  ctx: AppContext,
  spaceId: string,
  cr: MergedChangeRequest,
  mergedBy: string,
): Promise<void> {
  try {
    const row = await findGitSync(ctx.db, spaceId);
    if (!row?.export_on_merge) return;
    const space = await loadSpaceRow(ctx.db, spaceId);
    if (!space) return;
    await queueAutoOperation(ctx, {
      spaceId,
      organizationId: space.organization_id,
      direction: 'export',
      userId: mergedBy,
      commitMessage: mergeCommitMessage(cr),
    });
  } catch (err) {
    ctx.log.error({ err, spaceId, changeRequest: cr.id }, 'git sync: the export after a merge could not be queued');
  }
}
