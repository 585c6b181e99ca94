import type { ApiClient } from '../api/client';
import type { Space, User } from '../api/types';
import { ResourceStore } from '../stores/resource';
import { ChangeRequestApi, type ChangeRequest, type CrListKind, type Review } from './cr-api';

/** A change request's address: its space and its id. */
export type CrKey = [spaceId: string, crId: string];

/** A change request's reviews: each reviewer's latest verdict, and who was asked. */
export interface CrReviews {
  reviews: Review[];
  requested: User[];
}

/**
 * The change requests of the spaces the account opens, as resource stores (see stores/resource.ts),
 * with the writes that change them: each write puts the server's answer in or invalidates what it
 * changed, so the list, the open request and its reviews follow without a reload.
 */
export class ChangeRequestStores {
  /** One list of a space (open, merged or closed). */
  readonly lists: ResourceStore<[spaceId: string, kind: CrListKind], ChangeRequest[]>;
  readonly one: ResourceStore<CrKey, ChangeRequest>;
  readonly reviews: ResourceStore<CrKey, CrReviews>;
  private readonly apis = new Map<string, ChangeRequestApi>();

  constructor(
    private readonly client: ApiClient,
    /** The account's spaces (Stores.space): a merge moves a space to a new revision. */
    private readonly spaces?: ResourceStore<string, Space>,
  ) {
    const keyOf = (key: readonly string[]) => key.join('/');
    this.lists = new ResourceStore<[string, CrListKind], ChangeRequest[]>(
      ([spaceId, kind]) => this.api(spaceId).list(kind),
      { keyOf },
    );
    this.one = new ResourceStore<CrKey, ChangeRequest>(([spaceId, crId]) => this.api(spaceId).get(crId), { keyOf });
    this.reviews = new ResourceStore<CrKey, CrReviews>(
      async ([spaceId, crId]) => {
        const api = this.api(spaceId);
        const [reviews, requested] = await Promise.all([
          api.reviews(crId),
          // Older servers have no requested reviewers: the verdicts alone still make sense.
          api.requestedReviewers(crId).catch(() => []),
        ]);
        return { reviews, requested: requested.map((r) => r.user) };
      },
      { keyOf },
    );
  }

  /** The REST calls of one space's change requests (diff texts, changes, members). */
  api(spaceId: string): ChangeRequestApi {
    let api = this.apis.get(spaceId);
    if (!api) {
      api = new ChangeRequestApi(this.client, spaceId);
      this.apis.set(spaceId, api);
    }
    return api;
  }

  async create(spaceId: string, subject: string): Promise<ChangeRequest> {
    const cr = await this.api(spaceId).create(subject);
    this.one.set([spaceId, cr.id], cr);
    this.lists.invalidate([spaceId, 'active']);
    return cr;
  }

  async setStatus(spaceId: string, crId: string, status: 'draft' | 'open' | 'archived'): Promise<ChangeRequest> {
    const cr = await this.api(spaceId).setStatus(crId, status);
    this.one.set([spaceId, crId], { ...this.one.peek([spaceId, crId]), ...cr });
    this.invalidateLists(spaceId);
    return cr;
  }

  async merge(spaceId: string, crId: string): Promise<void> {
    await this.api(spaceId).merge(crId);
    this.one.invalidate([spaceId, crId]);
    this.invalidateLists(spaceId);
    // Every other request of the space is now behind main ("outdated"), and the space has a new revision.
    this.one.invalidate();
    this.spaces?.invalidate(spaceId);
  }

  async updateFromMain(spaceId: string, crId: string): Promise<void> {
    await this.api(spaceId).updateFromMain(crId);
    // A new base: the request is no longer outdated, and the reviews given before may be.
    this.one.invalidate([spaceId, crId]);
    this.reviews.invalidate([spaceId, crId]);
  }

  /**
   * Re-reads a change request in the background (its status, or main moving on, changes it): the
   * answer replaces what is shown; a failure (offline) keeps it.
   */
  async recheck(spaceId: string, crId: string): Promise<void> {
    try {
      this.one.set([spaceId, crId], await this.api(spaceId).get(crId));
    } catch {
      // Offline or refused: keep showing the last answer; an explicit reload reports errors.
    }
  }

  async submitReview(spaceId: string, crId: string, status: Review['status'], comment: string): Promise<void> {
    await this.api(spaceId).submitReview(crId, status, comment);
    this.reviews.invalidate([spaceId, crId]);
  }

  /** Asks `chosen` to review and no longer asks the others; answers whether anything changed. */
  async setRequestedReviewers(spaceId: string, crId: string, chosen: string[], already: string[]): Promise<boolean> {
    const api = this.api(spaceId);
    const added = chosen.filter((id) => !already.includes(id));
    const removed = already.filter((id) => !chosen.includes(id));
    try {
      if (added.length) await api.requestReviewers(crId, added);
      for (const id of removed) await api.removeRequestedReviewer(crId, id);
    } finally {
      // Even a half-done change (one removal failed) changed the list.
      if (added.length || removed.length) this.reviews.invalidate([spaceId, crId]);
    }
    return added.length > 0 || removed.length > 0;
  }

  private invalidateLists(spaceId: string): void {
    for (const kind of ['active', 'merged', 'archived'] as const) this.lists.invalidate([spaceId, kind]);
  }
}
