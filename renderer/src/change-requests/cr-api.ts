import type { ApiClient } from '../api/client';
import type { ChangeRequest, List, SemanticChange } from '../api/types';

/** The change-request calls of the REST API the panel uses. */
export class ChangeRequestApi {
  constructor(
    private readonly api: ApiClient,
    private readonly spaceId: string,
  ) {}

  private path(crId?: string, rest = ''): string {
    return `/spaces/${this.spaceId}/change-requests${crId ? `/${crId}` : ''}${rest}`;
  }

  /** Change requests still being worked on (draft and open), most recently updated first. */
  async listActive(): Promise<ChangeRequest[]> {
    const [open, draft] = await Promise.all(
      (['open', 'draft'] as const).map((status) =>
        this.api.request<List<ChangeRequest>>(this.path(), { query: { status, limit: 100, orderBy: 'updatedAt' } }),
      ),
    );
    return [...open!.items, ...draft!.items];
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

  /** The pages the change request changes (added, edited, moved, removed). */
  async changes(crId: string): Promise<{ changes: SemanticChange[]; more?: number }> {
    return this.api.request(this.path(crId, '/changes'), { query: { limit: 100 } });
  }
}
