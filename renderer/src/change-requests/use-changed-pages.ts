import { useEffect, useRef, useState } from 'preact/hooks';
import type * as Y from 'yjs';
import type { ContentDoc } from '../../../shared/doc/content-doc';
import type { ResourceState } from '../stores/resource';
import type { DocSession } from '../sync/doc-session';
import type { ChangeRequest, ChangeRequestApi } from './cr-api';
import { LiveChanges, type PageChange } from './live-changes';

/** What reviewing needs from the workspace: who is signed in and the change request's live document. */
export interface CrReviewContext {
  selfId: string;
  doc: Y.Doc;
  content: ContentDoc;
  /** The document's sync state: the live list waits for the first sync (a fresh copy is empty, not "all deleted"). */
  session: Pick<DocSession, 'state' | 'onState'>;
}

/** The revision of the space a change request is compared with: where it forked, or last updated from main. */
export const baseOf = (cr: ChangeRequest) => cr.revisionMergedAncestor ?? cr.revisionInitial;

/** Resolves once the document has caught up with the server (or is read-only, which also syncs); `stop` stops waiting. */
function firstSync(session: CrReviewContext['session']): { done: Promise<void>; stop: () => void } {
  const finished = (s: string) => s === 'online' || s === 'refused';
  if (finished(session.state)) return { done: Promise.resolve(), stop: () => undefined };
  let stop = () => undefined as void;
  const done = new Promise<void>((resolve) => {
    const off = session.onState((s) => {
      if (!finished(s)) return;
      off();
      resolve();
    });
    stop = () => void off();
  });
  return { done, stop };
}

/**
 * The changed pages of a change request, kept current: live from its document while it can be
 * edited (LiveChanges), else the server's list (a merged request: its document is read-only and
 * its base moved on). Restarted when the request's base or status changes, on `retry`, and when
 * `reloads` changes (the panel's reload button); everything it follows stops on unmount.
 */
export function useChangedPages(
  api: ChangeRequestApi,
  cr: ChangeRequest,
  review: CrReviewContext | undefined,
  reloads: number,
): { state: ResourceState<PageChange[]>; retry: () => void; live: LiveChanges | undefined } {
  const [state, setState] = useState<ResourceState<PageChange[]>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const live = useRef<LiveChanges>();
  const baseRevision = baseOf(cr);
  const merged = cr.status === 'merged';

  useEffect(() => {
    setState((old) => ('data' in old && old.data ? { status: 'loading', data: old.data } : { status: 'loading' }));
    if (!review || merged || !baseRevision) {
      let current = true;
      serverChanges(api, cr.id).then(
        (data) => current && setState({ status: 'ready', data }),
        (error: unknown) => current && setState({ status: 'error', error }),
      );
      return () => {
        current = false;
      };
    }
    const sync = firstSync(review.session);
    const changes = new LiveChanges(api, cr.id, baseRevision, review.doc, review.content, sync.done, (result) =>
      setState(result instanceof Error ? { status: 'error', error: result } : { status: 'ready', data: result }),
    );
    live.current = changes;
    void changes.start();
    return () => {
      sync.stop();
      changes.destroy();
      if (live.current === changes) live.current = undefined;
    };
  }, [api, cr.id, baseRevision, merged, review?.doc, review?.content, review?.session, reloads, attempt]);

  // The server cut a revision (the request is re-read every few seconds): edits made before the list
  // started, which it never saw happen, are in the server's list now.
  useEffect(() => {
    live.current?.learnFromServer().catch(() => undefined);
  }, [cr.revision]);

  return { state, retry: () => setAttempt((n) => n + 1), live: live.current };
}

/** The server's changes of a change request, one entry per page. */
async function serverChanges(api: ChangeRequestApi, crId: string): Promise<PageChange[]> {
  const { changes } = await api.changes(crId);
  const byPage = new Map<string, PageChange>();
  for (const c of changes) {
    const entry = byPage.get(c.page.id) ?? { pageId: c.page.id, title: c.page.title, kinds: [] };
    entry.kinds.push(c.type as PageChange['kinds'][number]);
    byPage.set(c.page.id, entry);
  }
  return [...byPage.values()];
}
