import {
  changeRequestOfContentDoc,
  crContentDoc,
  spaceContentDoc,
  spaceOfContentDoc,
} from '../../shared/sync-contract';
import { hasChangesFor } from './fork-merge';
import type { DocHub } from './hub';

/**
 * `outdated` of change requests: the space document has changes the fork
 * lacks. Computed from the two live documents (state vectors and delete
 * sets) once, then cached until either document changes, so lists do not
 * walk documents on every request.
 */
export class OutdatedForks {
  private readonly values = new Map<string, boolean>();
  private readonly bySpace = new Map<string, Set<string>>();
  private readonly unsubscribe: () => void;

  constructor(private readonly hub: DocHub) {
    this.unsubscribe = hub.onUpdate((name) => {
      const spaceId = spaceOfContentDoc(name);
      if (spaceId) {
        for (const crId of this.bySpace.get(spaceId) ?? []) this.values.delete(crId);
        return;
      }
      const crId = changeRequestOfContentDoc(name);
      if (crId) this.values.delete(crId);
    });
  }

  /** Whether the space has changes the change request's fork lacks. */
  async get(spaceId: string, crId: string): Promise<boolean> {
    const hit = this.values.get(crId);
    if (hit !== undefined) return hit;
    const value = await this.hub.withDoc(spaceContentDoc(spaceId), (space) =>
      this.hub.withDoc(crContentDoc(crId), (fork) => hasChangesFor(space, fork)),
    );
    let set = this.bySpace.get(spaceId);
    if (!set) this.bySpace.set(spaceId, (set = new Set()));
    set.add(crId);
    this.values.set(crId, value);
    return value;
  }

  close(): void {
    this.unsubscribe();
  }
}
