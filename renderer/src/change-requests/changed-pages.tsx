import { useState } from 'preact/hooks';
import { changeLabel } from '../diff/compute';
import { DiffDialog } from '../diff/diff-dialog';
import { AsyncSection, EmptyState } from '../ui/kit/async-section';
import { Icon } from '../ui/kit/icon';
import type { ChangeRequest, ChangeRequestApi } from './cr-api';
import type { LiveChanges, PageChange } from './live-changes';
import { baseOf, useChangedPages, type CrReviewContext } from './use-changed-pages';

/** The pages a change request changes, each with its kinds of change and its diff. */
export function ChangedPages(props: {
  api: ChangeRequestApi;
  cr: ChangeRequest;
  review: CrReviewContext | undefined;
  /** Bumped by the panel's reload button. */
  reloads: number;
  openPage: (pageId: string) => void;
}) {
  const { state, retry, live } = useChangedPages(props.api, props.cr, props.review, props.reloads);
  /** The page whose diff is open (the dialog is part of the panel: it closes with it). */
  const [diffOf, setDiffOf] = useState<PageChange>();
  return (
    <div class="cr-changes" data-testid="cr-changes">
      <AsyncSection state={state} what="changes" retry={retry}>
        {(list) =>
          list.length === 0 ? (
            <EmptyState message="No changes yet. Edit pages to change them in this request." />
          ) : (
            <ul class="cr-change-list">
              {list.map((change) => (
                <ChangedPage key={change.pageId} {...props} change={change} showDiff={() => setDiffOf(change)} />
              ))}
            </ul>
          )
        }
      </AsyncSection>
      {diffOf && <PageDiff {...props} change={diffOf} live={live} onClose={() => setDiffOf(undefined)} />}
    </div>
  );
}

function ChangedPage(props: {
  review: CrReviewContext | undefined;
  change: PageChange;
  showDiff: () => void;
  openPage: (pageId: string) => void;
}) {
  const { change: c } = props;
  const deleted = c.kinds.includes('page_deleted');
  return (
    <li class="cr-change" data-testid="cr-change" data-page={c.pageId}>
      <button
        type="button"
        class="link cr-change-title"
        disabled={deleted}
        title={deleted ? 'This page is deleted in the change request' : 'Open the page'}
        onClick={() => props.openPage(c.pageId)}
      >
        {c.title}
      </button>
      <span class="cr-change-kinds">
        {c.kinds.map((kind) => (
          <span key={kind} class={`badge cr-kind cr-kind-${kind}`} data-testid="cr-change-kind">
            {changeLabel(kind)}
          </span>
        ))}
      </span>
      {props.review && (
        <button
          type="button"
          class="cr-diff-button"
          data-testid="cr-view-diff"
          aria-label={`Diff of ${c.title}`}
          title="View changes"
          onClick={props.showDiff}
        >
          <Icon name="git-compare" /> Diff
        </button>
      )}
    </li>
  );
}

/** A changed page's diff: from the request's base to the text being edited (live) or its last revision (merged). */
function PageDiff(props: {
  api: ChangeRequestApi;
  cr: ChangeRequest;
  review: CrReviewContext | undefined;
  change: PageChange;
  live: LiveChanges | undefined;
  onClose: () => void;
}) {
  const { api, cr, review, change: c, live } = props;
  const deleted = c.kinds.includes('page_deleted');
  return (
    <DiffDialog
      title={c.title}
      badge={c.kinds.map(changeLabel).join(', ')}
      subtitle={`Main → change request #${cr.number}`}
      before={() => (live ? live.textAtBase(c.pageId) : api.pageMarkdownAt(baseOf(cr), c.pageId))}
      after={() =>
        deleted
          ? ''
          : live
            ? (review?.content.getPage(c.pageId)?.markdown ?? '')
            : api.pageMarkdownInChangeRequest(cr.id, c.pageId)
      }
      onClose={props.onClose}
    />
  );
}
