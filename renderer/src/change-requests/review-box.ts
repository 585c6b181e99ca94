import { describeError } from '../api/client';
import { h, replace } from '../ui/dom';
import { icon } from '../ui/icons';
import { toast } from '../ui/toast';
import type { ChangeRequest, ChangeRequestApi, Review } from './cr-api';
import { pickReviewers, reviewCommentDialog } from './reviewer-picker';
import { reviewSummary } from './review-summary';

/**
 * The review part of an open change request: who was asked to review, each
 * reviewer's latest verdict, the summary shown before Merge, and the buttons
 * to request reviewers, approve and request changes.
 */
export class ReviewBox {
  readonly element = h('div', { class: 'cr-reviews', 'data-testid': 'cr-reviews' });
  /** The summary line, also shown next to Merge. */
  summary = 'No reviews yet';

  constructor(
    private readonly crs: ChangeRequestApi,
    private readonly cr: ChangeRequest,
    private readonly selfId: string,
    private readonly onChanged: () => void,
  ) {}

  async load(): Promise<void> {
    const [reviews, requested] = await Promise.all([
      this.crs.reviews(this.cr.id),
      this.crs.requestedReviewers(this.cr.id).catch(() => []),
    ]);
    this.summary = reviewSummary(reviews);
    this.render(
      reviews,
      requested.map((r) => r.user),
    );
  }

  private render(reviews: Review[], requested: { id: string; displayName: string }[]): void {
    const live = this.cr.status === 'draft' || this.cr.status === 'open';
    const verdictOf = new Map(reviews.map((r) => [r.reviewer.id, r]));
    const people = new Map<string, string>();
    for (const u of requested) people.set(u.id, u.displayName);
    for (const r of reviews) people.set(r.reviewer.id, r.reviewer.displayName);
    const rows = [...people].map(([id, name]) => {
      const verdict = verdictOf.get(id)?.status;
      const label =
        verdict === 'approved' ? 'Approved' : verdict === 'changes-requested' ? 'Changes requested' : 'Pending';
      const cls = verdict === 'approved' ? 'ok' : verdict === 'changes-requested' ? 'danger' : 'pending';
      return h(
        'li',
        { class: 'cr-reviewer', 'data-testid': 'cr-reviewer' },
        icon(verdict === 'approved' ? 'circle-check' : verdict === 'changes-requested' ? 'circle-x' : 'clock'),
        h('span', { class: 'cr-reviewer-name' }, name),
        h('span', { class: `cr-verdict cr-verdict-${cls}` }, label),
      );
    });
    replace(
      this.element,
      h(
        'h3',
        {},
        'Reviews ',
        h('span', { class: 'cr-review-summary', 'data-testid': 'cr-review-summary' }, this.summary),
      ),
      rows.length ? h('ul', { class: 'cr-reviewer-list' }, ...rows) : null,
      live
        ? h(
            'div',
            { class: 'cr-review-actions' },
            h(
              'button',
              {
                type: 'button',
                'data-testid': 'cr-request-reviewers',
                title: 'Ask organization members to review',
                onclick: () => void this.requestReviewers(requested),
              },
              icon('user-plus'),
              ' Reviewers…',
            ),
            h(
              'button',
              {
                type: 'button',
                class: 'cr-approve',
                'data-testid': 'cr-approve',
                onclick: () => void this.review('approved'),
              },
              icon('check'),
              ' Approve',
            ),
            h(
              'button',
              {
                type: 'button',
                'data-testid': 'cr-request-changes',
                onclick: () => void this.review('changes-requested'),
              },
              icon('message'),
              ' Request changes',
            ),
          )
        : null,
    );
  }

  private async requestReviewers(requested: { id: string }[]): Promise<void> {
    const already = new Set(requested.map((u) => u.id));
    const chosen = await pickReviewers(() => this.crs.members(), already, this.selfId);
    if (!chosen) return;
    try {
      const added = chosen.filter((id) => !already.has(id));
      const removed = [...already].filter((id) => !chosen.includes(id));
      if (added.length) await this.crs.requestReviewers(this.cr.id, added);
      for (const id of removed) await this.crs.removeRequestedReviewer(this.cr.id, id);
      toast(added.length || removed.length ? 'Reviewers updated' : 'No change');
    } catch (err) {
      toast(`Could not request reviewers: ${describeError(err)}`, 'error');
    }
    this.onChanged();
  }

  private async review(status: Review['status']): Promise<void> {
    const comment = await reviewCommentDialog(status);
    if (comment === undefined) return;
    try {
      await this.crs.submitReview(this.cr.id, status, comment);
      toast(status === 'approved' ? 'Approved' : 'Changes requested');
    } catch (err) {
      toast(`Could not submit the review: ${describeError(err)}`, 'error');
    }
    this.onChanged();
  }
}
