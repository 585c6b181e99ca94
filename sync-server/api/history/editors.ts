import type { AppContext } from '../../context';
import { spaceOfContentDoc } from '../../../shared/sync-contract';
import { creditCurrentRevision } from '../../store/revision-history';

/** Contexts already wired (buildApp may be called more than once over one context in tests). */
const wired = new WeakSet<AppContext>();

/**
 * Revisions cut from live editing are made by the server after a quiet
 * period, so they carry no author. This remembers who last typed into each
 * space's content over a socket and, in the transaction that stores the
 * space's next revision, credits it to them (only when nobody else was: a
 * merge or a REST change keeps its own author). Last writer wins when several
 * people typed in one quiet period: the history shows one author per revision.
 */
export function creditLiveEditors(ctx: AppContext): void {
  if (wired.has(ctx)) return;
  wired.add(ctx);
  const lastEditor = new Map<string, string>();
  ctx.hub.onUpdate((name, _update, origin) => {
    if (origin.kind !== 'socket') return;
    const spaceId = spaceOfContentDoc(name);
    if (spaceId) lastEditor.set(spaceId, origin.userId);
  });
  ctx.snapshots.onSpaceRevision({
    prepare: async (spaceId) => {
      const userId = lastEditor.get(spaceId);
      lastEditor.delete(spaceId);
      return async (tx) => {
        if (userId) await creditCurrentRevision(tx, spaceId, userId);
      };
    },
  });
}
