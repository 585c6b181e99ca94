import { useState } from 'preact/hooks';
import { describeError } from '../api/client';
import { AsyncSection } from '../ui/kit/async-section';
import { confirmDialog } from '../ui/kit/dialog';
import { useInterval } from '../ui/kit/hooks';
import { Icon } from '../ui/kit/icon';
import { useRevalidatedResource } from '../ui/kit/use-revalidated-resource';
import { toast } from '../ui/toast';
import { ChangedPages } from './changed-pages';
import type { ChangeRequest } from './cr-api';
import type { ChangeRequestStores, CrKey, CrReviews } from './cr-stores';
import type { ResourceState } from '../stores/resource';
import { ReviewBox } from './review-box';
import { reviewSummary } from './review-summary';
import type { CrReviewContext } from './use-changed-pages';
import type { CrNavigation } from './cr-navigation';

/** How often an open change request is re-read, so "outdated" (main moved on) and status changes show without a reload. */
const RECHECK_MS = 10_000;

export const STATUS_LABEL: Record<string, string> = {
  draft: 'Draft',
  open: 'Open',
  merged: 'Merged',
  archived: 'Closed',
};

/**
 * One change request, opened: its status, the changed pages (live, each with its diff), its
 * reviews, merge, update from main, and the way back to main. It is re-read every few seconds;
 * the answer goes into the store and the panel re-renders in place (nothing typed or focused is lost).
 */
export function ChangeRequestDetail(props: {
  stores: ChangeRequestStores;
  spaceId: string;
  crId: string;
  nav: CrNavigation;
  review?: CrReviewContext;
}) {
  const { stores, spaceId, crId } = props;
  const key: CrKey = [spaceId, crId];
  const { state, retry } = useRevalidatedResource(stores.one, key);
  const reviews = useRevalidatedResource(stores.reviews, key);
  const [reloads, setReloads] = useState(0);
  useInterval(() => void stores.recheck(spaceId, crId), RECHECK_MS);
  const reload = () => {
    stores.one.invalidate(key);
    stores.reviews.invalidate(key);
    setReloads((n) => n + 1);
  };
  return (
    <AsyncSection state={state} what="the change request" retry={retry}>
      {(cr) => (
        <Opened {...props} cr={cr} reviews={props.review ? reviews : undefined} reloads={reloads} reload={reload} />
      )}
    </AsyncSection>
  );
}

function Opened(props: {
  stores: ChangeRequestStores;
  spaceId: string;
  cr: ChangeRequest;
  nav: CrNavigation;
  review?: CrReviewContext;
  reviews: { state: ResourceState<CrReviews>; retry: () => void } | undefined;
  reloads: number;
  reload: () => void;
}) {
  const { stores, spaceId, cr, nav, reviews } = props;
  const editable = cr.status === 'draft' || cr.status === 'open';
  const summary = reviews?.state.status === 'ready' ? reviewSummary(reviews.state.data.reviews) : undefined;

  /**
   * Runs a write and says how it went. The store takes the answer (the panel follows); a failure
   * reloads, so no control keeps showing what the server refused (the status menu).
   */
  const run = async (call: () => Promise<unknown>, done: string) => {
    try {
      await call();
      toast(done);
    } catch (err) {
      toast(describeError(err), 'error');
      props.reload();
    }
  };

  const merge = async () => {
    const state = summary ? ` (${summary.toLowerCase()})` : '';
    if (!(await confirmDialog(`Merge “${cr.subject || `#${cr.number}`}” into the space${state}?`, 'Merge'))) return;
    try {
      await stores.merge(spaceId, cr.id);
      toast(`Change request #${cr.number} merged`);
      nav.openChangeRequest(undefined);
    } catch (err) {
      toast(`Could not merge: ${describeError(err)}`, 'error');
    }
  };

  return (
    <>
      <p class="cr-title">
        <strong>{`#${cr.number} ${cr.subject || 'Untitled'}`}</strong>
        {cr.outdated && (
          <span
            class="badge badge-outdated"
            data-testid="cr-outdated"
            title="The space changed since this request was created or last updated: update from main"
          >
            outdated
          </span>
        )}
      </p>
      <label class="cr-status-label">
        Status{' '}
        <select
          aria-label="Status"
          data-testid="cr-status"
          disabled={!editable}
          value={cr.status}
          onChange={(event) => {
            const status = event.currentTarget.value as 'draft' | 'open' | 'archived';
            void run(() => stores.setStatus(spaceId, cr.id, status), 'Status changed');
          }}
        >
          {(['draft', 'open', 'archived'] as const).map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
          {!editable && cr.status !== 'archived' && <option value={cr.status}>{STATUS_LABEL[cr.status]}</option>}
        </select>
      </label>
      <h3>
        Changed pages{' '}
        <span class="cr-live" title="Updates as pages are edited">
          live
        </span>
        <button
          type="button"
          class="icon-button cr-refresh"
          title="Reload from the server"
          aria-label="Reload the change request"
          data-testid="cr-changes-refresh"
          onClick={props.reload}
        >
          <Icon name="refresh" size={14} />
        </button>
      </h3>
      <ChangedPages
        api={stores.api(spaceId)}
        cr={cr}
        review={props.review}
        reloads={props.reloads}
        openPage={(pageId) => nav.openPage(pageId)}
      />
      {reviews && props.review && (
        <ReviewBox
          stores={stores}
          spaceId={spaceId}
          cr={cr}
          selfId={props.review.selfId}
          state={reviews.state}
          retry={reviews.retry}
        />
      )}
      {editable && summary && (
        <p class="cr-merge-state" data-testid="cr-merge-state">
          Before merging: {summary.toLowerCase()}.
        </p>
      )}
      <div class="cr-actions">
        <button type="button" class="primary" data-testid="cr-merge" disabled={!editable} onClick={() => void merge()}>
          <Icon name="git-merge" /> Merge
        </button>
        <button
          type="button"
          data-testid="cr-update"
          disabled={!editable}
          onClick={() => void run(() => stores.updateFromMain(spaceId, cr.id), 'Updated from main')}
        >
          Update from main
        </button>
        <button type="button" data-testid="cr-back" onClick={() => nav.openChangeRequest(undefined)}>
          Back to main
        </button>
      </div>
    </>
  );
}
