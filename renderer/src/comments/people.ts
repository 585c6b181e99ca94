import { signal } from '@preact/signals';
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
 *
 * `nameOf` reads a signal, so a component that shows a name re-renders by
 * itself when the names arrive.
 */
export class People {
  private readonly names = new Map<string, string>();
  /** Bumped whenever names are learned. */
  private readonly learned = signal(0);
  private fetching = false;
  private fetchedAt = 0;

  constructor(
    private readonly api: ApiClient,
    private readonly commentsPath: string,
    /** Also told when names arrive (for code that does not read `nameOf` in a component). */
    private readonly onLearned: () => void = () => undefined,
  ) {}

  /** Records a known name. */
  learn(userId: string | undefined, name: string): void {
    if (!userId || this.names.get(userId) === name) return;
    this.names.set(userId, name);
    this.learned.value++;
  }

  /** The name of `userId`, or a placeholder while it is being looked up. */
  nameOf(userId: string): string {
    void this.learned.value;
    const name = this.names.get(userId);
    if (name) return name;
    // Looked up after this render: a signal must not change while a component reads it.
    queueMicrotask(() => void this.refresh());
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
      this.learned.value++;
      this.onLearned();
    } catch {
      // offline: placeholders stay until the next attempt
    } finally {
      this.fetching = false;
      this.fetchedAt = Date.now();
    }
  }
}
