import type { ChangeRequest as GbChangeRequest } from '@gitbook/api';
import type { ApiClient } from '../api/client';
import type { ChangeRequest as BaseChangeRequest, List, SemanticChange, User } from '../api/types';

/** A change request with what review needs: its revisions (the diff base) and its author. */
export type ChangeRequest = BaseChangeRequest &
  Pick<GbChangeRequest, 'revision' | 'revisionInitial' | 'revisionMergedAncestor' | 'updatedAt'> & {
    createdBy?: User;
    mergedBy?: User;
  };

/** The lists of the change-requests panel: still being worked on, merged, closed without merging. */
export type CrListKind = 'active' | 'merged' | 'archived';

export interface Review {
  id: string;
  status: 'approved' | 'changes-requested';
  outdated: boolean;
  reviewer: User;
  createdAt: string;
}

export interface RequestedReviewer {
  user: User;
}

export interface Member {
  role: string | null;
  user: User;
}

/** The change-request calls of the REST API the panel uses. */
export class ChangeRequestApi {
  constructor(
    readonly api: ApiClient,
    readonly spaceId: string,
  ) {}

  private path(crId?: string, rest = ''): string {
    return `/spaces/${this.spaceId}/change-requests${crId ? `/${crId}` : ''}${rest}`;
  }

  private listStatus(status: string): Promise<List<ChangeRequest>> {
    return this.api.request<List<ChangeRequest>>(this.path(), { query: { status, limit: 100, orderBy: 'updatedAt' } });
  }

  /** Change requests still being worked on (draft and open), most recently updated first. */
  async listActive(): Promise<ChangeRequest[]> {
    const [open, draft] = await Promise.all([this.listStatus('open'), this.listStatus('draft')]);
    return [...open.items, ...draft.items];
  }

  /** One of the panel's lists. */
  async list(kind: CrListKind): Promise<ChangeRequest[]> {
    return kind === 'active' ? this.listActive() : (await this.listStatus(kind)).items;
  }

  get(crId: string): Promise<ChangeRequest> {
    return this.api.request(this.path(crId));
  }

  create(subject: string): Promise<ChangeRequest> {
    return this.api.request(this.path(), { method: 'POST', body: { subject } });
  }

  setStatus(crId: string, status: 'draft' | 'open' | 'archived'): Promise<ChangeRequest> {
    return this.api.request(this.path(crId), { method: 'PATCH', body: { status } });
  }

  merge(crId: string): Promise<{ revision: string }> {
    return this.api.request(this.path(crId, '/merge'), { method: 'POST' });
  }

  updateFromMain(crId: string): Promise<{ revision: string }> {
    return this.api.request(this.path(crId, '/update'), { method: 'POST' });
  }

  /** The pages the change request changes (added, edited, moved, removed), as of its last revision. */
  async changes(crId: string): Promise<{ changes: SemanticChange[]; more?: number }> {
    return this.api.request(this.path(crId, '/changes'), { query: { limit: 1000 } });
  }

  /** The current reviews (each reviewer's latest), oldest first. */
  async reviews(crId: string): Promise<Review[]> {
    return (await this.api.request<List<Review>>(this.path(crId, '/reviews'), { query: { outdated: false } })).items;
  }

  submitReview(crId: string, status: Review['status'], comment: string): Promise<Review> {
    return this.api.request(this.path(crId, '/reviews'), {
      method: 'POST',
      body: { status, ...(comment.trim() ? { comment: documentOf(comment.trim()) } : {}) },
    });
  }

  async requestedReviewers(crId: string): Promise<RequestedReviewer[]> {
    return (await this.api.request<List<RequestedReviewer>>(this.path(crId, '/requested-reviewers'))).items;
  }

  requestReviewers(crId: string, users: string[]): Promise<unknown> {
    return this.api.request(this.path(crId, '/requested-reviewers'), { method: 'POST', body: { users } });
  }

  removeRequestedReviewer(crId: string, userId: string): Promise<unknown> {
    return this.api.request(this.path(crId, `/requested-reviewers/${userId}`), { method: 'DELETE' });
  }

  /** The members of the space's organization (the people who may be asked to review). */
  async members(): Promise<Member[]> {
    const space = await this.api.request<{ organization: string }>(`/spaces/${this.spaceId}`);
    return (await this.api.request<List<Member>>(`/orgs/${space.organization}/members`, { query: { limit: 1000 } }))
      .items;
  }

  /** A page's markdown in a revision of the space ('' when the page did not exist there). */
  async pageMarkdownAt(revisionId: string, pageId: string): Promise<string> {
    try {
      const page = await this.api.request<{ markdown?: string }>(
        `/spaces/${this.spaceId}/revisions/${revisionId}/page/${pageId}`,
        { query: { format: 'markdown' } },
      );
      return page.markdown ?? '';
    } catch (err) {
      if ((err as { status?: number }).status === 404) return '';
      throw err;
    }
  }

  /** A page's markdown in a change request's current revision ('' when it has no such page). */
  async pageMarkdownInChangeRequest(crId: string, pageId: string): Promise<string> {
    try {
      const page = await this.api.request<{ markdown?: string }>(this.path(crId, `/content/page/${pageId}`), {
        query: { format: 'markdown' },
      });
      return page.markdown ?? '';
    } catch (err) {
      if ((err as { status?: number }).status === 404) return '';
      throw err;
    }
  }

  /** The pages of a revision (tree of id, title, children) — what a change request started from. */
  async revisionPages(revisionId: string): Promise<RevisionPageNode[]> {
    return (
      await this.api.request<{ pages: RevisionPageNode[] }>(`/spaces/${this.spaceId}/revisions/${revisionId}/pages`)
    ).pages;
  }
}

export interface RevisionPageNode {
  id: string;
  title: string;
  pages?: RevisionPageNode[];
}

/** A review comment as the API's JSON document: one paragraph per line. */
function documentOf(text: string) {
  return {
    object: 'document',
    data: {},
    nodes: text.split(/\n+/).map((line) => ({
      object: 'block',
      type: 'paragraph',
      data: {},
      nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }],
    })),
  };
}
