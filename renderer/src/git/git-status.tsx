import { fullTime } from '../history/time';
import { Icon } from '../ui/kit/icon';
import type { GitOperation, GitSyncInfo } from './git-api';
import { branchOf, operationTitle, operationWhen, repositoryLabel, shortCommit } from './git-sync-model';

/**
 * The top of the Git sync panel: the repository the space syncs with (host and name, branch, folder,
 * the commit of the last sync) and its last operation (what, when, and the server's reason when it
 * failed), or, for a space without a sync, what connecting one does. The operation is a polite live
 * region: a screen reader hears "Export succeeded" when a running export ends.
 */
export function GitStatus(props: { info: GitSyncInfo | null; now: number; manage: boolean }) {
  const { info } = props;
  if (!info)
    return (
      <div class="git-notice" data-testid="git-status" data-state="none">
        <Icon name="info" class="git-notice-icon" />
        <p>
          {props.manage
            ? 'This space is not connected to a Git repository. Enter one below to export the space’s pages to it as Markdown files (in GitBook’s layout), or to import its pages from it.'
            : 'This space is not synced with a Git repository.'}
        </p>
      </div>
    );
  const op = info.operation;
  return (
    <section class="git-status" aria-label="Git sync status" data-testid="git-status" data-state={op?.state ?? 'idle'}>
      <div class="git-repo">
        <span class="git-repo-icon" aria-hidden="true">
          <Icon name="git-compare" size={18} />
        </span>
        <div class="git-repo-text">
          <p class="git-repo-name" data-testid="git-repo" title={info.url}>
            {repositoryLabel(info)}
          </p>
          <p class="git-repo-facts">
            <span>
              Branch <code data-testid="git-branch-name">{branchOf(info.ref)}</code>
            </span>
            {info.projectDirectory && (
              <span>
                Folder <code>{info.projectDirectory}</code>
              </span>
            )}
            {info.commit && (
              <span>
                Last synced commit <code title={info.commit}>{shortCommit(info.commit)}</code>
              </span>
            )}
          </p>
        </div>
      </div>
      <div role="status" aria-live="polite" class="git-op-region">
        {op ? (
          <OperationLine op={op} now={props.now} />
        ) : (
          <p class="git-op git-op-none" data-testid="git-operation" data-state="none">
            No import or export yet.
          </p>
        )}
      </div>
    </section>
  );
}

const OP_ICON = { running: 'loader', success: 'circle-check', failure: 'circle-x' } as const;

function OperationLine({ op, now }: { op: GitOperation; now: number }) {
  const at = op.state === 'running' ? op.startedAt : (op.endedAt ?? op.startedAt);
  return (
    <>
      <p class={`git-op git-op-${op.state}`} data-testid="git-operation" data-state={op.state}>
        <Icon name={OP_ICON[op.state]} class={op.state === 'running' ? 'git-spinner' : undefined} />
        <span class="git-op-title" data-testid="git-operation-title">
          {operationTitle(op)}
        </span>
        <time class="git-op-when" dateTime={at} title={fullTime(at)}>
          {operationWhen(op, now)}
        </time>
      </p>
      {op.state === 'failure' && (
        <p class="error-note" data-testid="git-operation-error">
          {op.error || 'The server gave no reason.'}
        </p>
      )}
    </>
  );
}
