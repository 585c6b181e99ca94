import { describeError } from '../api/client';
import type { ResourceState } from '../stores/resource';
import { AsyncSection } from '../ui/kit/async-section';
import { Icon } from '../ui/kit/icon';
import { toast } from '../ui/toast';
import type { ChangeRequest, Review } from './cr-api';
import type { ChangeRequestStores, CrReviews } from './cr-stores';
import { pickReviewers, reviewCommentDialog } from './reviewer-picker';
import { reviewSummary } from './review-summary';

/**
 * The review part of an open change request: who was asked to review, each reviewer's latest
 * verdict, the summary (also shown before Merge), and the buttons to request reviewers, approve
 * and request changes. Its data is the reviews store's (`state`), which every write invalidates.
 */
export function ReviewBox(props: {
  stores: ChangeRequestStores;
  spaceId: string;
  cr: ChangeRequest;
  selfId: string;
  state: ResourceState<CrReviews>;
  retry: () => void;
}) {
  const { stores, spaceId, cr } = props;
  const live = cr.status === 'draft' || cr.status === 'open';

  const requestReviewers = async (requested: { id: string }[]) => {
    const already = requested.map((u) => u.id);
    const chosen = await pickReviewers(() => stores.api(spaceId).members(), new Set(already), props.selfId);
    if (!chosen) return;
    try {
      const changed = await stores.setRequestedReviewers(spaceId, cr.id, chosen, already);
      toast(changed ? 'Reviewers updated' : 'No change');
    } catch (err) {
      toast(`Could not request reviewers: ${describeError(err)}`, 'error');
    }
  };

  const review = async (status: Review['status']) => {
    const comment = await reviewCommentDialog(status);
    if (comment === undefined) return;
    try {
      await stores.submitReview(spaceId, cr.id, status, comment);
      toast(status === 'approved' ? 'Approved' : 'Changes requested');
    } catch (err) {
      toast(`Could not submit the review: ${describeError(err)}`, 'error');
    }
  };

  return (
    <div class="cr-reviews" data-testid="cr-reviews">
      <AsyncSection state={props.state} what="reviews" retry={props.retry}>
        {({ reviews, requested }) => (
          <>
            <h3>
              Reviews{' '}
              <span class="cr-review-summary" data-testid="cr-review-summary">
                {reviewSummary(reviews)}
              </span>
            </h3>
            <ReviewerList reviews={reviews} requested={requested} />
            {live && (
              <div class="cr-review-actions">
                <button
                  type="button"
                  data-testid="cr-request-reviewers"
                  title="Ask organization members to review"
                  onClick={() => void requestReviewers(requested)}
                >
                  <Icon name="user-plus" /> Reviewers…
                </button>
                <button
                  type="button"
                  class="cr-approve"
                  data-testid="cr-approve"
                  onClick={() => void review('approved')}
                >
                  <Icon name="check" /> Approve
                </button>
                <button type="button" data-testid="cr-request-changes" onClick={() => void review('changes-requested')}>
                  <Icon name="message" /> Request changes
                </button>
              </div>
            )}
          </>
        )}
      </AsyncSection>
    </div>
  );
}

/** Everyone asked or who reviewed, with their verdict ("Pending" until they give one). */
function ReviewerList({ reviews, requested }: CrReviews) {
  const verdictOf = new Map(reviews.map((r) => [r.reviewer.id, r.status]));
  const people = new Map<string, string>();
  for (const u of requested) people.set(u.id, u.displayName);
  for (const r of reviews) people.set(r.reviewer.id, r.reviewer.displayName);
  if (people.size === 0) return null;
  return (
    <ul class="cr-reviewer-list">
      {[...people].map(([id, name]) => {
        const verdict = verdictOf.get(id);
        const [label, tone, icon] =
          verdict === 'approved'
            ? (['Approved', 'ok', 'circle-check'] as const)
            : verdict === 'changes-requested'
              ? (['Changes requested', 'danger', 'circle-x'] as const)
              : (['Pending', 'pending', 'clock'] as const);
        return (
          <li key={id} class="cr-reviewer" data-testid="cr-reviewer">
            <Icon name={icon} />
            <span class="cr-reviewer-name">{name}</span>
            <span class={`cr-verdict cr-verdict-${tone}`}>{label}</span>
          </li>
        );
      })}
    </ul>
  );
}
