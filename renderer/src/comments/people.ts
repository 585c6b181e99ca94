import type { ApiClient } from '../api/client';

interface ApiUser {
  id: string;
  displayName: string;
}
interface ApiComment {
  postedBy: ApiUser;
  repliers: { user: ApiUser }[];
}

/**
 * Display names of comment authors. The discussion document stores user ids
 * only; names come from the REST comment list (postedBy, repliers), fetched
 * when an unknown author shows up, and from the signed-in user.
 */
export class People {
  private readonly names = new Map<string, string>();
  private fetching = false;
  private fetchedAt = 0;

  constructor(
    private readonly api: ApiClient,
    private readonly commentsPath: string,
    private readonly onLearned: () => void,
  ) {}

  /** Records a known name. */
  learn(userId: string | undefined, name: string): void {
    if (userId) this.names.set(userId, name);
  }

  /** The name of `userId`, or a placeholder while it is being looked up. */
  nameOf(userId: string): string {
    const name = this.names.get(userId);
    if (name) return name;
    void this.refresh();
    return 'Someone';
  }

  private async refresh(): Promise<void> {
    // At most one lookup per 10 s: an author who is not in the list must not cause a request per render.
    if (this.fetching || Date.now() - this.fetchedAt < 10_000) return;
    this.fetching = true;
    try {
      const list = await this.api.request<{ items: ApiComment[] }>(this.commentsPath, { query: { limit: 100 } });
      for (const c of list.items) {
        this.names.set(c.postedBy.id, c.postedBy.displayName);
        for (const r of c.repliers) this.names.set(r.user.id, r.user.displayName);
      }
      this.onLearned();
    } catch {
      // offline: placeholders stay until the next attempt
    } finally {
      this.fetching = false;
      this.fetchedAt = Date.now();
    }
  }
}
